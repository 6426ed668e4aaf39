import { useState, type FormEvent } from 'react';
import {
  CAT_DESCRIPTION_MAX,
  CAT_LIVING,
  CAT_PROFILE_NAME_MAX,
  COAT_COLOURS,
  YES_NO_UNKNOWN,
  catDescriptionProblem,
  catNameProblem,
  type Cat,
  type CatLiving,
  type CoatColour,
  type UpdateCatRequest,
  type YesNoUnknown,
} from '@cats/contracts';
import { Button, buttonClass } from '../../../components/button.tsx';
import { catFieldProblem } from '../../../components/cats/cat-field-messages.ts';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { SelectField, TextField } from '../../../components/form-field.tsx';
import { Modal } from '../../../components/modal.tsx';
import { PostImage } from '../../../components/post/post-image.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { flattenPages } from '../../../components/post/api/post-cache.ts';
import { imageAlt } from '../../../components/post/post-alt.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useCatSightings } from '../api/get-cat-sightings.ts';
import { useUpdateCat } from '../api/update-cat.ts';
import { COAT_COLOUR_LABELS, LIVING_LABELS, YES_NO_UNKNOWN_LABELS } from './cat-labels.ts';

interface EditCatDialogProps {
  cat: Cat;
  onClose: () => void;
  /** The demo account may not edit: the caller shows its message instead. */
  onDemoRefused: () => void;
}

type FieldErrors = Partial<Record<'name' | 'description' | 'form', string>>;

const sameColours = (a: readonly CoatColour[], b: readonly CoatColour[]) =>
  a.length === b.length && a.every((c) => b.includes(c));

/**
 * A caretaker edits the cat (issue 26): name, description, coat, ear tip, neutering, where it lives,
 * and which sighting is the cover. Only what changed is sent, checked first with the contracts' own
 * schema; the server's refusal ({message}) stays in the dialog.
 */
export function EditCatDialog({ cat, onClose, onDemoRefused }: EditCatDialogProps) {
  const [name, setName] = useState(cat.name);
  const [description, setDescription] = useState(cat.description);
  const [coatColours, setCoatColours] = useState<CoatColour[]>(cat.coatColours);
  const [earTipped, setEarTipped] = useState<YesNoUnknown>(cat.earTipped);
  const [neutered, setNeutered] = useState<YesNoUnknown>(cat.neutered);
  const [living, setLiving] = useState<CatLiving>(cat.living);
  const [coverPostId, setCoverPostId] = useState(cat.cover?.postId ?? null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const update = useUpdateCat(cat._id);
  const sightings = useCatSightings(cat._id);
  const covers = flattenPages(sightings.data);
  const formId = `edit-cat-${cat._id}`;
  const t = useTranslate();

  const toggleColour = (colour: CoatColour, on: boolean) =>
    // Kept in the fixed list's order, whatever order they were ticked in.
    setCoatColours((current) => COAT_COLOURS.filter((c) => (c === colour ? on : current.includes(c))));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (update.isPending) return;
    const changes: UpdateCatRequest = {
      ...(name.trim() !== cat.name ? { name: name.trim() } : {}),
      ...(description.trim() !== cat.description ? { description: description.trim() } : {}),
      ...(!sameColours(coatColours, cat.coatColours) ? { coatColours } : {}),
      ...(earTipped !== cat.earTipped ? { earTipped } : {}),
      ...(neutered !== cat.neutered ? { neutered } : {}),
      ...(living !== cat.living ? { living } : {}),
      ...(coverPostId && coverPostId !== cat.cover?.postId ? { coverPostId } : {}),
    };
    // The contracts' rules, zod-free (no schema library reaches the browser); the server holds them too.
    const found: FieldErrors = {};
    const nameProblem = changes.name !== undefined ? catFieldProblem(catNameProblem(changes.name)) : null;
    const descriptionProblem =
      changes.description !== undefined ? catFieldProblem(catDescriptionProblem(changes.description)) : null;
    if (nameProblem) found.name = nameProblem;
    if (descriptionProblem) found.description = descriptionProblem;
    if (nameProblem || descriptionProblem) {
      setErrors(found);
      return;
    }
    setErrors({});
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    update.mutate(changes, {
      onSuccess: onClose,
      onError: (err) => {
        if (isDemoRefusal(err)) {
          onClose();
          onDemoRefused();
        } else setErrors({ form: errorMessage(err) });
      },
    });
  };

  return (
    <Modal
      title={t({ id: 'cats.edit.title', defaultMessage: 'Edit {cat}' }, { cat: cat.name })}
      className="edit-cat"
      onClose={onClose}
      dismissible={!update.isPending}
      actions={
        <>
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={update.isPending}
            onClick={onClose}
          >
            <Message id="cats.dialog.cancel" defaultMessage="Cancel" />
          </button>
          <Button type="submit" form={formId} disabled={update.isPending}>
            {update.isPending ? (
              <Message id="cats.edit.saving" defaultMessage="Saving..." />
            ) : (
              <Message id="cats.edit.save" defaultMessage="Save" />
            )}
          </Button>
        </>
      }
    >
      <form id={formId} className="edit-cat__form" onSubmit={submit} noValidate>
        <TextField
          label={t({ id: 'cats.edit.name', defaultMessage: 'Name' })}
          name="name"
          autoComplete="off"
          maxLength={CAT_PROFILE_NAME_MAX}
          value={name}
          error={errors.name}
          onChange={(e) => setName(e.target.value)}
        />
        <CountedTextarea
          label={t({ id: 'cats.edit.description', defaultMessage: 'Description' })}
          name="description"
          rows={4}
          max={CAT_DESCRIPTION_MAX}
          help={t({
            id: 'cats.edit.descriptionHelp',
            defaultMessage:
              'What helps neighbours recognise this cat: markings, habits, where it likes to sit.',
          })}
          value={description}
          error={errors.description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <fieldset className="edit-cat__group">
          <legend>
            <Message id="cats.facts.coatList" defaultMessage="Coat colours and pattern" />
          </legend>
          <div className="cat-chips cat-chips--choice">
            {COAT_COLOURS.map((colour) => (
              <label key={colour} className="cat-chip cat-chip--choice">
                <input
                  type="checkbox"
                  name="coatColours"
                  value={colour}
                  checked={coatColours.includes(colour)}
                  onChange={(e) => toggleColour(colour, e.target.checked)}
                />
                <span>{t(COAT_COLOUR_LABELS[colour])}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="edit-cat__selects">
          <SelectField
            label={t({ id: 'cats.facts.earTipped', defaultMessage: 'Ear-tipped' })}
            value={earTipped}
            options={YES_NO_UNKNOWN}
            labels={YES_NO_UNKNOWN_LABELS}
            onChange={setEarTipped}
          />
          <SelectField
            label={t({ id: 'cats.facts.neutered', defaultMessage: 'Neutered' })}
            value={neutered}
            options={YES_NO_UNKNOWN}
            labels={YES_NO_UNKNOWN_LABELS}
            onChange={setNeutered}
          />
          <SelectField
            label={t({ id: 'cats.facts.home', defaultMessage: 'Home' })}
            value={living}
            options={CAT_LIVING}
            labels={LIVING_LABELS}
            onChange={setLiving}
          />
        </div>
        <fieldset className="edit-cat__group">
          <legend>
            <Message id="cats.edit.cover" defaultMessage="Cover photo" />
          </legend>
          {sightings.isPending ? (
            <p className="muted">
              <Message id="cats.edit.loadingSightings" defaultMessage="Loading sightings..." />
            </p>
          ) : covers.length === 0 ? (
            <p className="muted">
              <Message
                id="cats.edit.noCovers"
                defaultMessage="This cat has no sightings to choose a cover from yet."
              />
            </p>
          ) : (
            <div className="edit-cat__covers">
              {covers.map((post) => (
                <label key={post._id} className="edit-cat__cover">
                  <input
                    type="radio"
                    name="coverPostId"
                    value={post._id}
                    checked={coverPostId === post._id}
                    onChange={() => setCoverPostId(post._id)}
                  />
                  <PostImage
                    image={post.image}
                    fallbackSrc={post.imageUrl}
                    alt={imageAlt(post)}
                    sizes="88px"
                    aspectRatio="1 / 1"
                  />
                </label>
              ))}
            </div>
          )}
        </fieldset>
        {errors.form && (
          <p className="notice notice--error" role="alert">
            {errors.form}
          </p>
        )}
      </form>
    </Modal>
  );
}
