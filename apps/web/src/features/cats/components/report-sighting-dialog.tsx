import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { MISSING_NOTE_MAX } from '@cats/contracts';
import { Button, buttonClass } from '../../../components/button.tsx';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import type { ChosenLocation } from '../../../components/location-picker/location-chooser.tsx';
import { Modal } from '../../../components/modal.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { showToast } from '../../../components/toast.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useReportSighting } from '../api/missing-reports.ts';
import { fromLocalInput, sightingFormProblems, toLocalInput, type FormProblems } from './missing-form.ts';
import { WhenAndWhereFields } from './sighting-fields.tsx';

interface Props {
  catId: string;
  catName: string;
  onClose: () => void;
  onDemoRefused: () => void;
}

/**
 * 'I saw this cat' (issue 26): with a photo, Spot opens with the cat chosen (a normal post linked to
 * it); without one, when and where (and a note), sent to the cat's caretakers alone.
 */
export function ReportSightingDialog({ catId, catName, onClose, onDemoRefused }: Props) {
  const [when, setWhen] = useState(() => toLocalInput(new Date()));
  const [place, setPlace] = useState<ChosenLocation | null>(null);
  const [note, setNote] = useState('');
  const [problems, setProblems] = useState<FormProblems>({});
  const [failure, setFailure] = useState<string | null>(null);
  /** A field's message goes as soon as the field changes: it was about the old value. */
  const changed = (field: keyof FormProblems) =>
    setProblems((current) => (current[field] ? { ...current, [field]: undefined } : current));
  const report = useReportSighting(catId);
  const formId = `report-${catId}`;
  const t = useTranslate();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (report.isPending) return;
    const found = sightingFormProblems({ when, place, note });
    setProblems(found);
    setFailure(null);
    if (Object.keys(found).length > 0 || !place) return;
    report.mutate(
      {
        seenAt: fromLocalInput(when)!.toISOString(),
        place: { latitude: place.latitude, longitude: place.longitude },
        note: note.trim(),
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
      title={t({ id: 'missing.report.title', defaultMessage: 'I saw {cat}' }, { cat: catName })}
      className="missing-dialog"
      onClose={onClose}
      dismissible={!report.isPending}
      actions={
        <>
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={report.isPending}
            onClick={onClose}
          >
            <Message id="cats.dialog.cancel" defaultMessage="Cancel" />
          </button>
          <Button type="submit" form={formId} disabled={report.isPending}>
            {report.isPending ? (
              <Message id="missing.report.sending" defaultMessage="Sending..." />
            ) : (
              <Message id="missing.report.send" defaultMessage="Send report" />
            )}
          </Button>
        </>
      }
    >
      <section className="missing-dialog__option" aria-labelledby={`${formId}-photo`}>
        <h3 id={`${formId}-photo`}>
          <Message id="missing.report.withPhoto" defaultMessage="With a photo" />
        </h3>
        <p>
          <Message
            id="missing.report.photoHelp"
            defaultMessage="A photo helps most. It is posted like any picture, linked to {cat}."
            values={{ cat: catName }}
          />
        </p>
        <Link className={buttonClass('accent')} to={`/spot?cat=${encodeURIComponent(catId)}`}>
          <Message id="missing.report.postPhoto" defaultMessage="Post a photo" />
        </Link>
      </section>
      <form id={formId} className="missing-dialog__form missing-dialog__option" onSubmit={submit} noValidate>
        <h3>
          <Message id="missing.report.withoutPhoto" defaultMessage="Without a photo" />
        </h3>
        <WhenAndWhereFields
          whenLabel={t(
            { id: 'missing.report.when', defaultMessage: 'When did you see {cat}?' },
            { cat: catName },
          )}
          when={when}
          onWhenChange={(next) => {
            setWhen(next);
            changed('when');
          }}
          whenError={problems.when}
          whereLabel={t(
            { id: 'missing.report.where', defaultMessage: 'Where did you see {cat}?' },
            { cat: catName },
          )}
          place={place}
          onPlaceChange={(next) => {
            setPlace(next);
            changed('place');
          }}
          placeError={problems.place}
          mapHelp={t({
            id: 'missing.report.mapHelp',
            defaultMessage:
              'Drag the pin or tap the map where you saw the cat. With a keyboard, focus the map and move the pin with the arrow keys.',
          })}
          mapLabel={t({
            id: 'missing.report.mapLabel',
            defaultMessage: 'Map for choosing where you saw the cat',
          })}
          disabled={report.isPending}
          placeNote={
            <p className="missing-dialog__notice">
              <Message
                id="missing.report.placeShared"
                defaultMessage="Your report's place is shared with the cat's caretakers."
              />
            </p>
          }
        />
        <CountedTextarea
          label={t({ id: 'missing.report.note', defaultMessage: 'Note for the caretakers (optional)' })}
          name="note"
          rows={3}
          max={MISSING_NOTE_MAX}
          value={note}
          error={problems.note}
          onChange={(e) => {
            setNote(e.target.value);
            changed('note');
          }}
        />
        {failure && (
          <p className="missing-dialog__error" role="alert">
            {failure}
          </p>
        )}
      </form>
    </Modal>
  );
}
