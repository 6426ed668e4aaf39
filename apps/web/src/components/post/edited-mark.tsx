import { formatRelativeDate } from '../../lib/relative-time.ts';
import { Message, useTranslate } from '../../i18n/message.tsx';

/**
 * 'edited' beside a post's date once its owner changed the text (issue 24), with the time of the last
 * edit on hover and in a <time datetime> element.
 */
export function EditedMark({ editedAt, className }: { editedAt: string | null; className?: string }) {
  const t = useTranslate();
  if (!editedAt) return null;
  const formatted = formatRelativeDate(editedAt, new Date());
  if (!formatted) return null;
  return (
    <time
      dateTime={formatted.dateTime}
      title={t({ id: 'post.edited.title', defaultMessage: 'Edited {date}' }, { date: formatted.exact })}
      className={['edited-mark', className].filter(Boolean).join(' ')}
    >
      <Message id="post.edited.mark" defaultMessage="edited" />
    </time>
  );
}
