import { useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { useUnhidePost } from '../../../components/post/api/hide-post.ts';
import { flattenPages } from '../../../components/post/api/post-cache.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useHiddenPosts } from '../api/get-hidden-posts.ts';
import {
  errorText,
  FormStatusMessage,
  LoadErrorText,
  SettingsCard,
  type FormStatus,
} from './settings-card.tsx';
import { imageAlt, postLabel } from '../../../components/post/post-alt.ts';

/** Settings' 'Hidden pictures' (issue 24): what the viewer hid, newest first, each with 'Unhide'. */
export function HiddenPosts({ disabled, onDemoRefused }: { disabled: boolean; onDemoRefused: () => void }) {
  const list = useHiddenPosts();
  const unhide = useUnhidePost();
  const [status, setStatus] = useState<FormStatus>(null);
  const posts = flattenPages(list.data);
  const t = useTranslate();

  return (
    <SettingsCard
      title={t({ id: 'settings.hidden.title', defaultMessage: 'Hidden pictures' })}
      description={t({
        id: 'settings.hidden.description',
        defaultMessage: 'Pictures you hid from your feed. Unhide one to see it again.',
      })}
    >
      {() => (
        <>
          {list.isPending ? (
            <p className="muted">
              <Message id="settings.loading" defaultMessage="Loading..." />
            </p>
          ) : list.isError ? (
            <LoadErrorText error={list.error} />
          ) : posts.length === 0 ? (
            <p className="muted">
              <Message id="settings.hidden.none" defaultMessage="You have not hidden any pictures." />
            </p>
          ) : (
            <ul className="hidden-posts">
              {posts.map((post) => {
                const alt = postLabel(post);
                return (
                  <li key={post._id} className="hidden-posts__item">
                    <img
                      className="hidden-posts__image"
                      src={post.image.variants['300'] ?? post.imageUrl}
                      alt={imageAlt(post)}
                      width={64}
                      height={64}
                      loading="lazy"
                    />
                    <div className="hidden-posts__text">
                      <span className="hidden-posts__author">{post.user.username}</span>
                      {(post.catName || post.caption) && (
                        <span className="hidden-posts__caption">{post.catName ?? post.caption}</span>
                      )}
                      <RelativeTime value={post.createdAt} className="hidden-posts__date" />
                    </div>
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={disabled || (unhide.isPending && unhide.variables === post._id)}
                      onClick={() => {
                        setStatus(null);
                        unhide.mutate(post._id, {
                          onSuccess: () =>
                            setStatus({
                              kind: 'success',
                              text: t({ id: 'settings.hidden.unhidden', defaultMessage: 'Picture unhidden' }),
                            }),
                          onError: (err) =>
                            isDemoDisabledError(err)
                              ? onDemoRefused()
                              : setStatus({ kind: 'error', text: errorText(err) }),
                        });
                      }}
                    >
                      <Message
                        id="settings.hidden.unhide"
                        defaultMessage="Unhide<hidden> {picture}</hidden>"
                        values={{
                          picture: alt,
                          hidden: (chunks) => <span className="visually-hidden">{chunks}</span>,
                        }}
                      />
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
          {list.hasNextPage && (
            <Button
              variant="ghost"
              size="sm"
              disabled={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
            >
              <Message id="settings.hidden.showMore" defaultMessage="Show more" />
            </Button>
          )}
          <FormStatusMessage status={status} />
        </>
      )}
    </SettingsCard>
  );
}
