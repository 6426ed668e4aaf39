import { Link } from 'react-router';
import type { Cat, CatMerge } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { showToast } from '../../../components/toast.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { useCatHistory, useUndoMerge } from '../api/cat-merges.ts';

const SOMEONE = 'Someone';
const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long' });

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
  if (merges.length === 0) return null;

  const undoMerge = (merge: CatMerge) =>
    undo.mutate(merge._id, {
      onSuccess: () => showToast({ message: `${merge.duplicate.name} has a page of its own again.` }),
      onError: (err) => {
        if (isDemoRefusal(err)) onDemoRefused();
        else showToast({ message: `Could not undo the merge: ${errorMessage(err)}` });
      },
    });

  return (
    <section className="cat-history" aria-labelledby="cat-history-title">
      <h2 id="cat-history-title" className="cat-page__section-title">
        History
      </h2>
      <ul className="cat-history__list">
        {merges.map((merge) => (
          <li key={merge._id} className="cat-history__item">
            <p className="cat-history__text">
              <MergeSentence merge={merge} />{' '}
              <RelativeTime value={merge.mergedAt} className="cat-history__time" />
            </p>
            {merge.undoneAt && (
              <p className="cat-history__text">
                <strong>{merge.undoneBy?.username ?? SOMEONE}</strong> undid this merge.{' '}
                <RelativeTime value={merge.undoneAt} className="cat-history__time" />
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
                  Undo
                </Button>
                <span className="cat-history__until">
                  You can undo this until {dayFormat.format(new Date(merge.undoUntil))}.
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
          {history.isFetchingNextPage ? 'Loading...' : 'Show more'}
        </Button>
      )}
      {history.isFetchNextPageError && (
        <p className="notice notice--error" role="alert">
          Could not load more of the history: {errorMessage(history.error)}
        </p>
      )}
    </section>
  );
}

/** '{who} merged {duplicate} into {cat}.', each name a part of the one sentence, the cats linked. */
function MergeSentence({ merge }: { merge: CatMerge }) {
  const who = <strong>{merge.mergedBy?.username ?? SOMEONE}</strong>;
  const duplicate = (
    <Link to={`/cats/${encodeURIComponent(merge.duplicate._id)}`}>{merge.duplicate.name}</Link>
  );
  const into = <Link to={`/cats/${encodeURIComponent(merge.cat._id)}`}>{merge.cat.name}</Link>;
  return (
    <>
      {who} merged {duplicate} into {into}.
    </>
  );
}
