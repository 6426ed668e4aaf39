import { useCallback, useSyncExternalStore } from 'react';

/** The width from which a screen counts as a desktop: Explore's list and the feed's side column. */
export const DESKTOP_QUERY = '(min-width: 1024px)';

/**
 * Whether a media query matches now, re-rendering when that changes. Used where a wide screen shows
 * more (and fetches more) rather than only laying the same content out differently.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}
