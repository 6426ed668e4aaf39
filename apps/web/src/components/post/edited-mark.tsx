import { formatRelativeDate } from '../../lib/relative-time.ts';

/**
 * 'edited' beside a post's date once its owner changed the text (issue 24), with the time of the last
 * edit on hover and in a <time datetime> element.
 */
export function EditedMark({ editedAt, className }: { editedAt: string | null; className?: string }) {
  if (!editedAt) return null;
  const formatted = formatRelativeDate(editedAt, new Date());
  if (!formatted) return null;
  return (
    <time
      dateTime={formatted.dateTime}
      title={`Edited ${formatted.exact}`}
      className={['edited-mark', className].filter(Boolean).join(' ')}
    >
      edited
    </time>
  );
}
