import { elapsedSince, type Elapsed } from '../../lib/relative-time.ts';
import { useMinuteClock } from '../relative-time.tsx';

type Sentences = {
  now: string;
  minute: (count: number) => string;
  hour: (count: number) => string;
  day: (count: number) => string;
  date: (date: string) => string;
};

/** One whole sentence per case (lib/relative-time.ts gives the parts), never pieces glued together. */
const SENTENCES: Record<'last' | 'one', Sentences> = {
  last: {
    now: 'Last seen just now.',
    minute: (count) => `Last seen ${count} min ago.`,
    hour: (count) => `Last seen ${count} h ago.`,
    day: (count) => `Last seen ${count} d ago.`,
    date: (date) => `Last seen on ${date}.`,
  },
  one: {
    now: 'Seen just now.',
    minute: (count) => `Seen ${count} min ago.`,
    hour: (count) => `Seen ${count} h ago.`,
    day: (count) => `Seen ${count} d ago.`,
    date: (date) => `Seen on ${date}.`,
  },
};

const sentence = (texts: Sentences, elapsed: Elapsed): string =>
  elapsed.unit === 'now'
    ? texts.now
    : elapsed.unit === 'date'
      ? texts.date(elapsed.date)
      : texts[elapsed.unit](elapsed.count);

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
  const parts = at ? elapsedSince(at, now) : null;
  if (!parts) return <span className={className}>Not seen yet.</span>;
  return (
    <time className={className} dateTime={parts.dateTime} title={parts.exact}>
      {sentence(SENTENCES[kind], parts.elapsed)}
    </time>
  );
}
