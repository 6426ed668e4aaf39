import { useState } from 'react';
import type { CatListItem, Post } from '@cats/contracts';
import { Message, useTranslate } from '../../i18n/message.tsx';
import { buttonClass } from '../button.tsx';
import { Modal } from '../modal.tsx';
import { showToast } from '../toast.tsx';
import { errorMessage, isDemoRefusal } from '../post/api/errors.ts';
import { nearPicture, useSearchCats } from './api/search-cats.ts';
import { useSuggestCat } from './api/suggest-cat.ts';
import { CatSearchList } from './cat-search-list.tsx';
import './cats.css';

interface SuggestCatDialogProps {
  post: Post;
  onClose: () => void;
  /** The demo account may not suggest: the caller shows its message instead. */
  onDemoRefused: () => void;
}

/**
 * 'This is…' on someone else's picture (issue 26, "Linking sightings"): search the cats by name
 * (nearest to the picture's place first, as far as the viewer may know it) and pick the one it shows.
 * One tap sends the suggestion; the picture's author accepts or declines it. 'Which cat is this?'
 * (which-cat-dialog.tsx) is the author's own dialog: it links at once, unlinks and creates cats, none
 * of which a suggester may do, so this one shares its cat search list (cat-search-list.tsx), not its
 * actions.
 */
export default function SuggestCatDialog({ post, onClose, onDemoRefused }: SuggestCatDialogProps) {
  const [q, setQ] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const search = useSearchCats({ q, near: nearPicture(post) });
  const suggest = useSuggestCat(post._id);
  const author = post.user.username;
  const t = useTranslate();

  const choose = (cat: CatListItem) => {
    setFailure(null);
    suggest.mutate(cat._id, {
      onSuccess: () => {
        showToast({
          message: t(
            {
              id: 'cats.suggest.sent',
              defaultMessage: 'You suggested that this is {cat}. {author} will decide.',
            },
            { cat: cat.name, author },
          ),
        });
        onClose();
      },
      onError: (err) => {
        if (isDemoRefusal(err)) {
          onClose();
          onDemoRefused();
        } else setFailure(errorMessage(err));
      },
    });
  };

  return (
    <Modal
      title={t({ id: 'cats.which.title', defaultMessage: 'Which cat is this?' })}
      className="which-cat"
      onClose={onClose}
      dismissible={!suggest.isPending}
      actions={
        <button type="button" className={buttonClass('ghost')} disabled={suggest.isPending} onClick={onClose}>
          <Message id="cats.dialog.cancel" defaultMessage="Cancel" />
        </button>
      }
    >
      <p className="which-cat__current">
        {post.cat ? (
          <Message
            id="cats.suggest.current"
            defaultMessage="{author} says this is <strong>{cat}</strong>. If you know better, pick the cat it shows and {author} will decide."
            values={{ author, cat: post.cat.name, strong: (chunks) => <strong>{chunks}</strong> }}
          />
        ) : (
          <Message
            id="cats.suggest.none"
            defaultMessage="Pick the cat you think this is. {author} will decide whether to link the picture to it."
            values={{ author }}
          />
        )}
      </p>
      <CatSearchList
        label={t({ id: 'cats.search.label', defaultMessage: 'Search cats by name' })}
        onSearch={setQ}
        search={search}
        cats={search.data?.cats ?? []}
        loadingText={t({ id: 'cats.search.loading', defaultMessage: 'Looking for cats...' })}
        emptyText={
          q
            ? t({ id: 'cats.suggest.noMatch', defaultMessage: 'No cat has that name.' })
            : t({ id: 'cats.search.noCats', defaultMessage: 'There are no cats yet.' })
        }
        listLabel={t({ id: 'cats.search.list', defaultMessage: 'Cats' })}
        onChoose={choose}
        disabled={suggest.isPending}
        linksPicture
        linkedCatId={post.cat?._id ?? null}
      />
      {failure && (
        <p className="notice notice--error" role="alert">
          {failure}
        </p>
      )}
    </Modal>
  );
}
