import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { CAT_PROFILE_NAME_MAX, catNameProblem, type CatListItem, type Post } from '@cats/contracts';
import { Message, useTranslate } from '../../i18n/message.tsx';
import { Button, buttonClass } from '../button.tsx';
import { TextField } from '../form-field.tsx';
import { Modal } from '../modal.tsx';
import { showToast } from '../toast.tsx';
import { errorMessage, isDemoRefusal } from '../post/api/errors.ts';
import { useCreateCat } from './api/create-cat.ts';
import { useLinkPostCat } from './api/link-post-cat.ts';
import { nearPicture, useSearchCats } from './api/search-cats.ts';
import { catFieldProblem } from './cat-field-messages.ts';
import { CatSearchList } from './cat-search-list.tsx';
import './cats.css';

interface WhichCatDialogProps {
  post: Post;
  onClose: () => void;
  /** The demo account may not link: the caller shows its message instead. */
  onDemoRefused: () => void;
}

/**
 * 'Which cat is this?' on one's own picture (issue 26, "Linking sightings"): search the cats by name
 * (nearest to the picture's spot first when it has one), pick one to link or relink it, 'Not this cat'
 * to unlink it, or make a new cat of it. Each choice saves at once; refusals stay in the dialog.
 */
export default function WhichCatDialog({ post, onClose, onDemoRefused }: WhichCatDialogProps) {
  const [q, setQ] = useState('');
  const [newName, setNewName] = useState(post.catName ?? '');
  const [nameError, setNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const search = useSearchCats({ q, near: nearPicture(post) });
  const link = useLinkPostCat(post._id);
  const create = useCreateCat();
  const pending = link.isPending || create.isPending;
  const t = useTranslate();

  const refused = (err: unknown) => {
    if (isDemoRefusal(err)) {
      onClose();
      onDemoRefused();
    } else setFailure(errorMessage(err));
  };

  const choose = (cat: CatListItem | null) => {
    setFailure(null);
    link.mutate(cat?._id ?? null, {
      onSuccess: () => {
        showToast({
          message: cat
            ? t(
                { id: 'cats.which.linked', defaultMessage: 'This picture now shows {cat}.' },
                { cat: cat.name },
              )
            : t({ id: 'cats.which.unlinked', defaultMessage: 'This picture is no longer linked to a cat.' }),
        });
        onClose();
      },
      onError: refused,
    });
  };

  const createNew = (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    setFailure(null);
    // The contracts' rule (zod-free, so no schema library reaches the browser); the server holds it too.
    const problem = catFieldProblem(catNameProblem(newName));
    if (problem) {
      setNameError(problem);
      return;
    }
    setNameError(null);
    create.mutate(
      { name: newName.trim(), postId: post._id },
      {
        onSuccess: ({ cat }) => {
          showToast({
            message: t(
              {
                id: 'cats.which.created',
                defaultMessage: '{cat} has a page now, with this picture as the first sighting.',
              },
              { cat: cat.name },
            ),
          });
          onClose();
        },
        onError: refused,
      },
    );
  };

  return (
    <Modal
      title={t({ id: 'cats.which.title', defaultMessage: 'Which cat is this?' })}
      className="which-cat"
      onClose={onClose}
      dismissible={!pending}
      actions={
        <>
          {post.cat && (
            <Button variant="secondary" disabled={pending} onClick={() => choose(null)}>
              <Message id="cats.which.notThis" defaultMessage="Not this cat" />
            </Button>
          )}
          <button type="button" className={buttonClass('ghost')} disabled={pending} onClick={onClose}>
            <Message id="cats.dialog.cancel" defaultMessage="Cancel" />
          </button>
        </>
      }
    >
      <p className="which-cat__current">
        {post.cat ? (
          <Message
            id="cats.which.current"
            defaultMessage="This picture is linked to <link>{cat}</link>."
            values={{
              cat: post.cat.name,
              link: (chunks) => <Link to={`/cats/${encodeURIComponent(post.cat?._id ?? '')}`}>{chunks}</Link>,
            }}
          />
        ) : (
          <Message id="cats.which.none" defaultMessage="This picture is not linked to a cat yet." />
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
            ? t({
                id: 'cats.which.noMatch',
                defaultMessage: 'No cat has that name yet. You can make a new cat below.',
              })
            : t({ id: 'cats.search.noCats', defaultMessage: 'There are no cats yet.' })
        }
        listLabel={t({ id: 'cats.search.list', defaultMessage: 'Cats' })}
        onChoose={choose}
        disabled={pending}
        linksPicture
        linkedCatId={post.cat?._id ?? null}
      />
      <form className="which-cat__new" onSubmit={createNew} noValidate>
        <h3 className="which-cat__new-title">
          <Message id="cats.which.newTitle" defaultMessage="A cat not listed here?" />
        </h3>
        <TextField
          label={t({ id: 'cats.which.newName', defaultMessage: "New cat's name" })}
          name="name"
          autoComplete="off"
          maxLength={CAT_PROFILE_NAME_MAX}
          value={newName}
          error={nameError}
          onChange={(e) => setNewName(e.target.value)}
        />
        <Button type="submit" variant="accent" disabled={pending}>
          {create.isPending ? (
            <Message id="cats.which.creating" defaultMessage="Creating..." />
          ) : (
            <Message id="cats.which.create" defaultMessage="Create this cat" />
          )}
        </Button>
      </form>
      {failure && (
        <p className="notice notice--error" role="alert">
          {failure}
        </p>
      )}
    </Modal>
  );
}
