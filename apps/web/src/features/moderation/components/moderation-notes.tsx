import { useId, useState, type FormEvent } from 'react';
import { MODERATION_NOTE_MAX, type ModerationNote, type ReportTargetType } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useAddNote } from '../api/add-note.ts';

/** Notes between moderators about one reported thing, oldest first, and a form to add one. */
export function ModerationNotes({
  targetType,
  targetId,
  notes,
}: {
  targetType: ReportTargetType;
  targetId: string;
  notes: ModerationNote[];
}) {
  const headingId = useId();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddNote();
  const t = useTranslate();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (body.trim() === '') {
      setError(t({ id: 'moderation.notes.empty', defaultMessage: 'Write a note first.' }));
      return;
    }
    setError(null);
    add.mutate(
      { targetType, targetId, body },
      { onSuccess: () => setBody(''), onError: (err) => setError(errorMessage(err)) },
    );
  };

  return (
    <section className="queue-card__section" aria-labelledby={headingId}>
      <h3 id={headingId} className="queue-card__heading">
        <Message id="moderation.notes.heading" defaultMessage="Notes between moderators" />
      </h3>
      {notes.length === 0 ? (
        <p className="muted queue-card__empty">
          <Message id="moderation.notes.none" defaultMessage="No notes yet." />
        </p>
      ) : (
        <ul className="queue-card__list">
          {notes.map((note) => (
            <li key={note._id} className="queue-card__note">
              <p className="queue-card__meta">
                <Message
                  id="moderation.notes.meta"
                  defaultMessage="<strong>{author}</strong> {when}"
                  values={{
                    strong: (chunks) => <strong>{chunks}</strong>,
                    author:
                      note.author?.username ??
                      t({ id: 'moderation.notes.formerModerator', defaultMessage: 'A former moderator' }),
                    when: <RelativeTime value={note.createdAt} className="muted" />,
                  }}
                />
              </p>
              <p className="queue-card__text">{note.body}</p>
            </li>
          ))}
        </ul>
      )}
      <form className="queue-card__note-form" onSubmit={onSubmit}>
        <CountedTextarea
          label={t({ id: 'moderation.notes.label', defaultMessage: 'Add a note for the other moderators' })}
          value={body}
          max={MODERATION_NOTE_MAX}
          rows={2}
          error={error}
          onChange={(e) => setBody(e.target.value)}
        />
        <Button type="submit" variant="secondary" size="sm" disabled={add.isPending}>
          {add.isPending ? (
            <Message id="moderation.notes.adding" defaultMessage="Adding..." />
          ) : (
            <Message id="moderation.notes.add" defaultMessage="Add note" />
          )}
        </Button>
      </form>
    </section>
  );
}
