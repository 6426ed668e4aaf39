import { useRef, useState } from 'react';
import { CAT_MERGE_UNDO_DAYS, type Cat, type CatListItem } from '@cats/contracts';
import { Button, buttonClass } from '../../../components/button.tsx';
import { CatSearchList } from '../../../components/cats/cat-search-list.tsx';
import { Modal } from '../../../components/modal.tsx';
import { showToast } from '../../../components/toast.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useCaredForCats, useMergeCats } from '../api/cat-merges.ts';
import { useCat } from '../api/get-cat.ts';
// The list's look is the cat pickers' (which-cat__*): one style for choosing a cat.
import '../../../components/cats/cats.css';

interface MergeCatDialogProps {
  /** The cat that stays: the page's. */
  cat: Cat;
  onClose: () => void;
  /** The demo account may not merge: the caller shows its message instead. */
  onDemoRefused: () => void;
}

/**
 * 'Merge a duplicate…' on a cat's page, for its caretakers (issue 26): pick the other profile of the
 * same cat among the cats one cares for, then confirm, having read what moves. The server checks
 * again that the caller cares for both.
 */
export function MergeCatDialog({ cat, onClose, onDemoRefused }: MergeCatDialogProps) {
  const [duplicate, setDuplicate] = useState<CatListItem | null>(null);
  const merge = useMergeCats(cat._id);
  const [failure, setFailure] = useState<string | null>(null);
  const t = useTranslate();

  const confirm = () => {
    if (!duplicate) return;
    setFailure(null);
    merge.mutate(duplicate._id, {
      onSuccess: () => {
        showToast({
          message: t(
            {
              id: 'cats.merge.done',
              defaultMessage: '{duplicate} is now part of {cat}. You can undo this from the history.',
            },
            { duplicate: duplicate.name, cat: cat.name },
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

  if (!duplicate) return <PickDuplicate cat={cat} onPick={setDuplicate} onClose={onClose} />;
  return (
    <ConfirmMerge
      cat={cat}
      duplicate={duplicate}
      pending={merge.isPending}
      failure={failure}
      onBack={() => {
        setFailure(null);
        setDuplicate(null);
      }}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}

function PickDuplicate({
  cat,
  onPick,
  onClose,
}: {
  cat: Cat;
  onPick: (duplicate: CatListItem) => void;
  onClose: () => void;
}) {
  const [q, setQ] = useState('');
  const search = useCaredForCats(q);
  const others = (search.data ?? []).filter((c) => c._id !== cat._id);
  const t = useTranslate();

  return (
    <Modal
      title={t(
        { id: 'cats.merge.pickTitle', defaultMessage: 'Merge a duplicate into {cat}' },
        { cat: cat.name },
      )}
      className="which-cat"
      onClose={onClose}
      actions={
        <button type="button" className={buttonClass('ghost')} onClick={onClose}>
          <Message id="cats.dialog.cancel" defaultMessage="Cancel" />
        </button>
      }
    >
      <p className="which-cat__current">
        <Message
          id="cats.merge.pickIntro"
          defaultMessage="Pick the other profile of this same cat. Only the cats you care for are listed."
        />
      </p>
      <CatSearchList
        label={t({ id: 'cats.merge.searchLabel', defaultMessage: 'Search your cats by name' })}
        onSearch={setQ}
        search={search}
        cats={others}
        loadingText={t({ id: 'cats.merge.loading', defaultMessage: 'Looking for your cats...' })}
        emptyText={
          q
            ? t({
                id: 'cats.merge.noMatch',
                defaultMessage: 'None of the other cats you care for has that name.',
              })
            : t({ id: 'cats.merge.noOthers', defaultMessage: 'You care for no other cat.' })
        }
        listLabel={t({ id: 'cats.merge.list', defaultMessage: 'Your cats' })}
        onChoose={onPick}
      />
    </Modal>
  );
}

interface ConfirmMergeProps {
  cat: Cat;
  duplicate: CatListItem;
  pending: boolean;
  failure: string | null;
  onBack: () => void;
  onConfirm: () => void;
  onClose: () => void;
}

/** What a merge does, said before it is done; Back first, so Enter never merges by accident. */
function ConfirmMerge({ cat, duplicate, pending, failure, onBack, onConfirm, onClose }: ConfirmMergeProps) {
  const backRef = useRef<HTMLButtonElement>(null);
  // The duplicate's profile as its caretaker sees it: whether it has a home point the survivor lacks.
  const profile = useCat(duplicate._id);
  const takesHome = !cat.home && profile.data?.living === 'household' && Boolean(profile.data.home);
  const dup = duplicate.name;
  const t = useTranslate();
  return (
    <Modal
      role="alertdialog"
      title={t(
        { id: 'cats.merge.confirmTitle', defaultMessage: 'Merge {dup} into {cat}?' },
        { dup, cat: cat.name },
      )}
      className="which-cat"
      onClose={onClose}
      dismissible={!pending}
      initialFocusRef={backRef}
      actions={
        <>
          <button
            ref={backRef}
            type="button"
            className={buttonClass('secondary')}
            disabled={pending}
            onClick={onBack}
          >
            <Message id="cats.merge.back" defaultMessage="Back" />
          </button>
          <Button variant="danger" disabled={pending} onClick={onConfirm}>
            {pending ? (
              <Message id="cats.merge.merging" defaultMessage="Merging..." />
            ) : (
              <Message id="cats.merge.merge" defaultMessage="Merge" />
            )}
          </Button>
        </>
      }
    >
      <ul className="merge-cat__effects">
        <li>
          <Message
            id="cats.merge.effect.moves"
            defaultMessage="{dup}’s sightings, followers and caretakers move to {cat}."
            values={{ dup, cat: cat.name }}
          />
        </li>
        <li>
          <Message
            id="cats.merge.effect.keeps"
            defaultMessage="{cat} keeps its own name, photo and details. The address of {dup}’s page leads to {cat}."
            values={{ dup, cat: cat.name }}
          />
        </li>
        {takesHome && (
          <li>
            <Message
              id="cats.merge.effect.home"
              defaultMessage="{cat} takes {dup}’s home point, so the sightings near that home stay private."
              values={{ dup, cat: cat.name }}
            />
          </li>
        )}
        <li>
          <Message
            id="cats.merge.effect.undo"
            defaultMessage="You can undo this for {days} days from the cat’s history."
            values={{ days: CAT_MERGE_UNDO_DAYS }}
          />
        </li>
      </ul>
      {failure && (
        <p className="notice notice--error" role="alert">
          {failure}
        </p>
      )}
    </Modal>
  );
}
