import { useState, type FormEvent } from 'react';
import {
  MISSING_CONTACT_PREFERENCES,
  MISSING_NOTE_MAX,
  type Cat,
  type MissingContactPreference,
} from '@cats/contracts';
import { Button, buttonClass } from '../../../components/button.tsx';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { AlertIcon } from '../../../components/icons.tsx';
import type { ChosenLocation } from '../../../components/location-picker/location-chooser.tsx';
import { Modal } from '../../../components/modal.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { showToast } from '../../../components/toast.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useMarkMissing } from '../api/missing-alert.ts';
import { CONTACT_CHOICES } from './missing-labels.ts';
import { fromLocalInput, sightingFormProblems, toLocalInput, type FormProblems } from './missing-form.ts';
import { WhenAndWhereFields } from './sighting-fields.tsx';

interface Props {
  cat: Cat;
  onClose: () => void;
  onDemoRefused: () => void;
}

/**
 * 'Mark as missing' (issue 26): when and where the cat was last seen, a note and how the caretaker
 * wants to hear from people. Checked with the contracts' rules before sending; the server's refusal
 * (a fourth alert, say) stays in the dialog.
 */
export function MarkMissingDialog({ cat, onClose, onDemoRefused }: Props) {
  const [when, setWhen] = useState(() => toLocalInput(new Date()));
  const [place, setPlace] = useState<ChosenLocation | null>(null);
  const [note, setNote] = useState('');
  const [contact, setContact] = useState<MissingContactPreference | null>('report');
  const [problems, setProblems] = useState<FormProblems>({});
  const [failure, setFailure] = useState<string | null>(null);
  /** A field's message goes as soon as the field changes: it was about the old value. */
  const changed = (field: keyof FormProblems) =>
    setProblems((current) => (current[field] ? { ...current, [field]: undefined } : current));
  const mark = useMarkMissing(cat._id);
  const formId = `mark-missing-${cat._id}`;
  const t = useTranslate();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mark.isPending) return;
    const found = sightingFormProblems({ when, place, note, contact });
    setProblems(found);
    setFailure(null);
    if (Object.keys(found).length > 0 || !place || !contact) return;
    mark.mutate(
      {
        lastSeenAt: fromLocalInput(when)!.toISOString(),
        place: { latitude: place.latitude, longitude: place.longitude },
        note: note.trim(),
        contact,
      },
      {
        onSuccess: (data) => {
          showToast({ message: data.message });
          onClose();
        },
        onError: (err) => {
          if (isDemoRefusal(err)) {
            onClose();
            onDemoRefused();
          } else setFailure(errorMessage(err));
        },
      },
    );
  };

  return (
    <Modal
      title={t({ id: 'missing.mark.title', defaultMessage: 'Mark {cat} as missing' }, { cat: cat.name })}
      className="missing-dialog"
      onClose={onClose}
      dismissible={!mark.isPending}
      actions={
        <>
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={mark.isPending}
            onClick={onClose}
          >
            <Message id="cats.dialog.cancel" defaultMessage="Cancel" />
          </button>
          <Button type="submit" form={formId} variant="danger" disabled={mark.isPending}>
            {mark.isPending ? (
              <Message id="missing.mark.saving" defaultMessage="Saving..." />
            ) : (
              <Message id="missing.mark.submit" defaultMessage="Mark as missing" />
            )}
          </Button>
        </>
      }
    >
      <form id={formId} className="missing-dialog__form" onSubmit={submit} noValidate>
        <p className="missing-dialog__notice">
          <Message
            id="missing.mark.notice"
            defaultMessage="Everyone within 2 km sees the alert with the place to about 500 m. Only the caretakers see the exact place. The alert ends after 30 days unless you renew it."
          />
        </p>
        <WhenAndWhereFields
          whenLabel={t(
            { id: 'missing.mark.when', defaultMessage: 'When was {cat} last seen?' },
            { cat: cat.name },
          )}
          when={when}
          onWhenChange={(next) => {
            setWhen(next);
            changed('when');
          }}
          whenError={problems.when}
          whereLabel={t(
            { id: 'missing.mark.where', defaultMessage: 'Where was {cat} last seen?' },
            { cat: cat.name },
          )}
          place={place}
          onPlaceChange={(next) => {
            setPlace(next);
            changed('place');
          }}
          placeError={problems.place}
          mapHelp={t({
            id: 'missing.mark.mapHelp',
            defaultMessage:
              'Drag the pin or tap the map where the cat was last seen. With a keyboard, focus the map and move the pin with the arrow keys.',
          })}
          mapLabel={t({
            id: 'missing.mark.mapLabel',
            defaultMessage: 'Map for choosing where the cat was last seen',
          })}
          disabled={mark.isPending}
        />
        <CountedTextarea
          label={t({ id: 'missing.mark.note', defaultMessage: 'Note for your neighbours' })}
          name="note"
          rows={3}
          max={MISSING_NOTE_MAX}
          help={t({
            id: 'missing.mark.noteHelp',
            defaultMessage:
              'What helps people recognise the cat: markings, a collar, whether it is shy. Do not write your address.',
          })}
          value={note}
          error={problems.note}
          onChange={(e) => {
            setNote(e.target.value);
            changed('note');
          }}
        />
        <fieldset className="missing-dialog__group">
          <legend>
            <Message id="missing.mark.contact" defaultMessage="How should people reach you?" />
          </legend>
          {MISSING_CONTACT_PREFERENCES.map((choice) => (
            <label key={choice} className="missing-dialog__choice">
              <input
                type="radio"
                name="contact"
                value={choice}
                checked={contact === choice}
                onChange={() => {
                  setContact(choice);
                  changed('contact');
                }}
              />
              <span>{t(CONTACT_CHOICES[choice])}</span>
            </label>
          ))}
          {problems.contact && (
            <p className="field__error">
              <AlertIcon size={16} />
              {problems.contact}
            </p>
          )}
        </fieldset>
        {failure && (
          <p className="missing-dialog__error" role="alert">
            {failure}
          </p>
        )}
      </form>
    </Modal>
  );
}
