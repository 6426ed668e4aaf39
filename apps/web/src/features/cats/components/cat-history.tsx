import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Cat, CatMerge } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { dateTimeFormat } from '../../../i18n/intl-formatters.ts';
import { dateLocale } from '../../../lib/relative-time.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { showToast } from '../../../components/toast.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { defineMessage } from '../../../i18n/i18n-store.ts';
import { Message, useLanguage, useTranslate } from '../../../i18n/message.tsx';
import { useCatHistory, useUndoMerge } from '../api/cat-merges.ts';

const SOMEONE = defineMessage({ id: 'cats.history.someone', defaultMessage: 'Someone' });

interface CatHistoryProps {
  cat: Cat;
  onDemoRefused: () => void;
}

/**
 * The cat's history (issue 26): the merges it took part in, who made each and when, who undid it, and
 * Undo for its caretakers within 30 days, a page at a time ('Show more'). Nothing shows for a cat that
 * was never merged.
 */
export function CatHistory({ cat, onDemoRefused }: CatHistoryProps) {
  const history = useCatHistory(cat._id);
  const undo = useUndoMerge(cat._id);
  const merges = history.data ?? [];
  const t = useTranslate();
  const language = useLanguage();
  if (merges.length === 0) return null;
  const dayFormat = dateTimeFormat(dateLocale(language), { day: 'numeric', month: 'long' });

  const undoMerge = (merge: CatMerge) =>
    undo.mutate(merge._id, {
      onSuccess: () =>
        showToast({
          message: t(
            { id: 'cats.history.undone.toast', defaultMessage: '{cat} has a page of its own again.' },
            { cat: merge.duplicate.name },
          ),
        }),
      onError: (err) => {
        if (isDemoRefusal(err)) onDemoRefused();
        else
          showToast({
            message: t(
              { id: 'cats.history.undoFailed', defaultMessage: 'Could not undo the merge: {reason}' },
              { reason: errorMessage(err) },
            ),
          });
      },
    });

  return (
    <section className="cat-history" aria-labelledby="cat-history-title">
      <h2 id="cat-history-title" className="cat-page__section-title">
        <Message id="cats.history.title" defaultMessage="History" />
      </h2>
      <ul className="cat-history__list">
        {merges.map((merge) => (
          <li key={merge._id} className="cat-history__item">
            <p className="cat-history__text">
              <MergeSentence
                merge={merge}
                someone={t(SOMEONE)}
                time={<RelativeTime value={merge.mergedAt} className="cat-history__time" />}
              />
            </p>
            {merge.undoneAt && (
              <p className="cat-history__text">
                <Message
                  id="cats.history.undoneBy"
                  defaultMessage="<strong>{who}</strong> undid this merge. {time}"
                  values={{
                    who: merge.undoneBy?.username ?? t(SOMEONE),
                    time: <RelativeTime value={merge.undoneAt} className="cat-history__time" />,
                    strong: (chunks) => <strong>{chunks}</strong>,
                  }}
                />
              </p>
            )}
            {merge.canUndo && (
              <div className="cat-history__undo">
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={undo.isPending}
                  onClick={() => undoMerge(merge)}
                >
                  <Message id="cats.history.undo" defaultMessage="Undo" />
                </Button>
                <span className="cat-history__until">
                  <Message
                    id="cats.history.undoUntil"
                    defaultMessage="You can undo this until {date}."
                    values={{ date: dayFormat.format(new Date(merge.undoUntil)) }}
                  />
                </span>
              </div>
            )}
          </li>
        ))}
      </ul>
      {history.hasNextPage && (
        <Button
          variant="secondary"
          size="sm"
          className="cat-history__more"
          disabled={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          {history.isFetchingNextPage ? (
            <Message id="cats.history.loading" defaultMessage="Loading..." />
          ) : (
            <Message id="cats.history.more" defaultMessage="Show more" />
          )}
        </Button>
      )}
      {history.isFetchNextPageError && (
        <p className="notice notice--error" role="alert">
          <Message
            id="cats.history.moreFailed"
            defaultMessage="Could not load more of the history: {reason}"
            values={{ reason: errorMessage(history.error) }}
          />
        </p>
      )}
    </section>
  );
}

/** '{who} merged {duplicate} into {cat}.', each name a part of the one sentence, the cats linked. */
function MergeSentence({ merge, someone, time }: { merge: CatMerge; someone: string; time: ReactNode }) {
  return (
    <Message
      id="cats.history.merged"
      defaultMessage="<strong>{who}</strong> merged <duplicateLink>{duplicate}</duplicateLink> into <catLink>{cat}</catLink>. {time}"
      values={{
        who: merge.mergedBy?.username ?? someone,
        duplicate: merge.duplicate.name,
        cat: merge.cat.name,
        time,
        strong: (chunks) => <strong>{chunks}</strong>,
        duplicateLink: (chunks) => (
          <Link to={`/cats/${encodeURIComponent(merge.duplicate._id)}`}>{chunks}</Link>
        ),
        catLink: (chunks) => <Link to={`/cats/${encodeURIComponent(merge.cat._id)}`}>{chunks}</Link>,
      }}
    />
  );
}
