import { useCallback, useDeferredValue, useState, type ReactNode } from 'react';
import './infinite-list.css';

/**
 * Items in a list's first render. A phone shows two or three cards; building the other 17 of a page
 * in the same task kept the first card's picture (the feed's largest paint) off screen for a quarter
 * second of a throttled phone's CPU (docs/performance.md). The rest follow in a background render
 * that React interrupts for input.
 */
export const FIRST_RENDER_ITEMS = 3;

interface InfiniteListProps<T> {
  items: T[];
  getKey: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  /** Shown under the list once every page is loaded. */
  endMessage?: ReactNode;
  /** Shown while the next page loads. */
  loadingMessage?: ReactNode;
  className?: string;
  label?: string;
}

/**
 * Spec section 2: the next page loads when the second-to-last item becomes visible. The observer
 * follows that item as pages arrive, so a tall screen keeps loading until it is filled.
 */
export function InfiniteList<T>({
  items,
  getKey,
  renderItem,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  endMessage,
  loadingMessage = 'Loading more cats...',
  className,
  label,
}: InfiniteListProps<T>) {
  // useDeferredValue: the first render has the first items only, then the whole list renders in the
  // background; later pages are appended the same way, without blocking a scroll or a tap.
  const [firstItems] = useState(() => items.slice(0, FIRST_RENDER_ITEMS));
  const shown = useDeferredValue(items, firstItems);
  // The second-to-last item of the whole list: not rendered (so not observed) until the list has
  // caught up, so the first render's few items never ask for the next page.
  const sentinelIndex = Math.max(0, items.length - 2);
  // A new callback per sentinel position and per finished fetch re-observes the current item, so a
  // sentinel still on screen after a page arrives asks for the following page.
  const sentinelRef = useCallback(
    (node: HTMLElement | null) => {
      if (!node || !hasNextPage || isFetchingNextPage) return;
      let fired = false;
      const observer = new IntersectionObserver(
        (entries) => {
          if (fired || !entries.some((e) => e.isIntersecting)) return;
          fired = true;
          void fetchNextPage();
        },
        { rootMargin: '200px 0px' },
      );
      observer.observe(node);
      return () => observer.disconnect();
    },
    // sentinelIndex: a new second-to-last item must be observed afresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [hasNextPage, isFetchingNextPage, fetchNextPage, sentinelIndex],
  );

  return (
    <>
      <ul className={`infinite-list ${className ?? ''}`} aria-label={label} aria-busy={isFetchingNextPage}>
        {shown.map((item, index) => (
          <li
            key={getKey(item)}
            className="infinite-list__item"
            ref={index === sentinelIndex ? sentinelRef : undefined}
          >
            {renderItem(item, index)}
          </li>
        ))}
      </ul>
      {isFetchingNextPage && (
        <p className="infinite-list__status" role="status">
          {loadingMessage}
        </p>
      )}
      {!hasNextPage && items.length > 0 && endMessage && (
        <p className="infinite-list__status">{endMessage}</p>
      )}
    </>
  );
}
