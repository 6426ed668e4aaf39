import { useSyncExternalStore } from 'react';
import { formatRelativeDate } from '../lib/relative-time.ts';

/**
 * One clock for every date on screen: a single timer while anything shows a date (a feed of a hundred
 * cards must not run a hundred timers). It looks four times a minute; React re-renders the dates only
 * when the minute changed.
 */
const MINUTE = 60_000;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  timer ??= setInterval(() => listeners.forEach((l) => l()), MINUTE / 4);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The time to the minute: the same value for every render within a minute, as React needs. */
const getNow = () => Math.floor(Date.now() / MINUTE) * MINUTE;

/** The shared clock's minute, for texts that say how long ago in a sentence of their own. */
export function useMinuteClock(): Date {
  return new Date(useSyncExternalStore(subscribe, getNow, getNow));
}

/** When something was posted or written: '3 h', '2 d', '12 Nov', the exact time on hover. */
export function RelativeTime({ value, className }: { value: string; className?: string }) {
  const at = useSyncExternalStore(subscribe, getNow, getNow);
  const formatted = formatRelativeDate(value, new Date(at));
  if (!formatted) return null;
  return (
    <time dateTime={formatted.dateTime} title={formatted.exact} className={className}>
      {formatted.label}
    </time>
  );
}
