import { useCallback, type ReactNode } from 'react';

interface InfiniteListProps<T> {
  items: T[];
  getKey: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  /** Shown under the list once every page is loaded. */
  endMessage?: ReactNode;
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
  className,
  label,
}: InfiniteListProps<T>) {
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
        {items.map((item, index) => (
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
          Loading more cats...
        </p>
      )}
      {!hasNextPage && items.length > 0 && endMessage && (
        <p className="infinite-list__status">{endMessage}</p>
      )}
    </>
  );
}
