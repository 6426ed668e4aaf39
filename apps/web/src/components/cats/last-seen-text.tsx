import { defineMessage, type MessageDescriptor } from '../../i18n/i18n-store.ts';
import { useLanguage, useTranslate } from '../../i18n/message.tsx';
import { dateLocale, elapsedSince, type Elapsed } from '../../lib/relative-time.ts';
import { useMinuteClock } from '../relative-time.tsx';

type Sentences = Record<Elapsed['unit'], MessageDescriptor>;

/** One whole sentence per case (lib/relative-time.ts gives the parts), never pieces glued together. */
const SENTENCES: Record<'last' | 'one', Sentences> = {
  last: {
    now: defineMessage({ id: 'cats.seen.last.now', defaultMessage: 'Last seen just now.' }),
    minute: defineMessage({ id: 'cats.seen.last.minutes', defaultMessage: 'Last seen {count} min ago.' }),
    hour: defineMessage({ id: 'cats.seen.last.hours', defaultMessage: 'Last seen {count} h ago.' }),
    day: defineMessage({ id: 'cats.seen.last.days', defaultMessage: 'Last seen {count} d ago.' }),
    date: defineMessage({ id: 'cats.seen.last.date', defaultMessage: 'Last seen on {date}.' }),
  },
  one: {
    now: defineMessage({ id: 'cats.seen.one.now', defaultMessage: 'Seen just now.' }),
    minute: defineMessage({ id: 'cats.seen.one.minutes', defaultMessage: 'Seen {count} min ago.' }),
    hour: defineMessage({ id: 'cats.seen.one.hours', defaultMessage: 'Seen {count} h ago.' }),
    day: defineMessage({ id: 'cats.seen.one.days', defaultMessage: 'Seen {count} d ago.' }),
    date: defineMessage({ id: 'cats.seen.one.date', defaultMessage: 'Seen on {date}.' }),
  },
};

interface SeenTextProps {
  at: string | null;
  className?: string;
  /** 'last': the cat's newest sighting ('Last seen 3 h ago.'); 'one': any sighting ('Seen 3 h ago.'). */
  kind?: 'last' | 'one';
}

/**
 * When a cat was seen, as a sentence, with the exact time on hover; 'Not seen yet.' for a cat without a
 * sighting the viewer may see.
 */
export function LastSeenText({ at, className, kind = 'last' }: SeenTextProps) {
  const now = useMinuteClock();
  const t = useTranslate();
  const language = useLanguage();
  const parts = at ? elapsedSince(at, now, { locale: dateLocale(language) }) : null;
  if (!parts) {
    return <span className={className}>{t({ id: 'cats.seen.never', defaultMessage: 'Not seen yet.' })}</span>;
  }
  const { elapsed } = parts;
  return (
    <time className={className} dateTime={parts.dateTime} title={parts.exact}>
      {t(
        SENTENCES[kind][elapsed.unit],
        elapsed.unit === 'now'
          ? {}
          : elapsed.unit === 'date'
            ? { date: elapsed.date }
            : { count: elapsed.count },
      )}
    </time>
  );
}
