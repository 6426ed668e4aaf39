import { useId, useState, type FormEvent } from 'react';
import { MODERATION_NOTE_MAX, type ModerationNote, type ReportTargetType } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
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

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (body.trim() === '') {
      setError('Write a note first.');
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
        Notes between moderators
      </h3>
      {notes.length === 0 ? (
        <p className="muted queue-card__empty">No notes yet.</p>
      ) : (
        <ul className="queue-card__list">
          {notes.map((note) => (
            <li key={note._id} className="queue-card__note">
              <p className="queue-card__meta">
                <strong>{note.author?.username ?? 'A former moderator'}</strong>{' '}
                <RelativeTime value={note.createdAt} className="muted" />
              </p>
              <p className="queue-card__text">{note.body}</p>
            </li>
          ))}
        </ul>
      )}
      <form className="queue-card__note-form" onSubmit={onSubmit}>
        <CountedTextarea
          label="Add a note for the other moderators"
          value={body}
          max={MODERATION_NOTE_MAX}
          rows={2}
          error={error}
          onChange={(e) => setBody(e.target.value)}
        />
        <Button type="submit" variant="secondary" size="sm" disabled={add.isPending}>
          {add.isPending ? 'Adding...' : 'Add note'}
        </Button>
      </form>
    </section>
  );
}
