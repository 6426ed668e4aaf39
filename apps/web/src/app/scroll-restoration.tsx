import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const STORAGE_KEY = 'scroll-positions';
const positions = new Map<string, number>(
  (() => {
    try {
      return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as [string, number][];
    } catch {
      return [];
    }
  })(),
);

/**
 * The key under which the entry on screen keeps its position. React Router's key is 'default' for the
 * entry of every full load (an address typed, a link from elsewhere, a new tab), so a position saved
 * under it opened every other address scrolled down (issue 28, defect 2). Such an entry gets a key of
 * its own in history.state instead: a new load starts without one (at the top), a reload or a Back
 * into it from another site finds it again.
 */
function entryKey(routerKey: string): string {
  if (routerKey !== 'default') return routerKey;
  const state = window.history.state as { scrollKey?: string } | null;
  if (state?.scrollKey) return state.scrollKey;
  const scrollKey = `load-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  window.history.replaceState({ ...state, scrollKey }, '');
  return scrollKey;
}

/**
 * Scrolls without animating: global.css makes scrolling smooth (for in-page links), but a page that
 * comes back should be where it was, not glide there from the top.
 */
const jumpTo = (y: number) => window.scrollTo({ top: y, left: 0, behavior: 'instant' });

/**
 * How long a returning page may take to grow tall enough for its saved position. After a reload a busy
 * phone can take seconds to render the rest of a list (2 s was too short on a loaded CI machine); the
 * reader's own scroll, touch or key ends the wait at once.
 */
export const RESTORE_WINDOW_MS = 10_000;

/**
 * Scrolls to a saved position. The page may not be that tall yet: lists render most of their items
 * in a background render (components/post/infinite-list.tsx) and pictures arrive later. So it tries
 * again each time the page grows, until it gets there, the reader scrolls themselves, or the window
 * closes. Returns the clean-up.
 */
function restore(y: number): () => void {
  jumpTo(y);
  if (Math.abs(window.scrollY - y) < 1 || typeof ResizeObserver === 'undefined') return () => {};
  const userScrolls = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  const observer = new ResizeObserver(() => {
    jumpTo(y);
    if (Math.abs(window.scrollY - y) < 1) stop();
  });
  const timer = setTimeout(() => stop(), RESTORE_WINDOW_MS);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
    for (const type of userScrolls) window.removeEventListener(type, stop);
  }
  observer.observe(document.body);
  for (const type of userScrolls) window.addEventListener(type, stop, { passive: true });
  return stop;
}

/**
 * React Router's <ScrollRestoration> for a declarative router: a new page starts at the top, Back and
 * Forward return to where that page was left (also after a reload, from session storage); a fresh load
 * of an address starts at the top.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const { hash } = location;
  const key = entryKey(location.key);
  const navigationType = useNavigationType();
  /** The page on screen, set as soon as a new one commits. */
  const current = useRef(key);

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    const save = () => {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions].slice(-50)));
    };
    window.addEventListener('pagehide', save);
    return () => window.removeEventListener('pagehide', save);
  }, []);

  // Remember the position of the page on screen as the person scrolls it. The listener of a page just
  // left is removed after the next paint, so the new page's jump to the top can still reach it: only
  // the page on screen records a position, or Back would return to the top.
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (current.current === key) positions.set(key, window.scrollY);
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, [key]);

  useLayoutEffect(() => {
    current.current = key;
    const saved = positions.get(key);
    if (navigationType === 'POP' && saved !== undefined) return restore(saved);
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
    else jumpTo(0);
  }, [key, hash, navigationType]);

  return null;
}
