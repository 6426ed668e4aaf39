import { useEffect, useRef } from 'react';
import type { MapMarker } from '@cats/contracts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { LoadingSkeleton, RowListSkeleton } from '../../../components/skeleton/skeleton.tsx';
import type { VisiblePosts } from '../lib/visible-posts.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';

/**
 * Desktop Explore (issue 28): the posts whose markers are on screen, beside the map, newest first.
 * Pointing at or focusing an item highlights its marker, and the other way round; activating one
 * opens the same card as its marker.
 */
export function ExploreList({
  visible,
  loading,
  highlighted,
  onHighlight,
  onOpen,
}: {
  visible: VisiblePosts;
  /** Nothing loaded yet for this map. */
  loading: boolean;
  highlighted: string | null;
  onHighlight: (postId: string | null) => void;
  onOpen: (marker: MapMarker) => void;
}) {
  const { markers, clustered } = visible;
  const t = useTranslate();
  return (
    <aside className="explore-list" aria-labelledby="explore-list-title">
      <div className="explore-list__head">
        <h2 id="explore-list-title" className="explore-list__title">
          <Message id="explore.list.title" defaultMessage="Cats on this part of the map" />
        </h2>
        {!loading && markers.length > 0 && (
          <p className="explore-list__count">
            <Message
              id="explore.list.count"
              defaultMessage="{count, plural, one {One cat is shown on the map.} other {# cats are shown on the map.}}"
              values={{ count: markers.length }}
            />
          </p>
        )}
      </div>
      {loading ? (
        <LoadingSkeleton
          label={t({ id: 'explore.list.loading', defaultMessage: 'Loading the cats on the map...' })}
          className="explore-list__skeleton"
        >
          <RowListSkeleton count={6} picture={56} />
        </LoadingSkeleton>
      ) : markers.length === 0 ? (
        <p className="explore-list__empty">
          {clustered > 0 ? (
            <Message
              id="explore.list.zoomIn"
              defaultMessage="Zoom in on the numbered circles to list the cats they hold."
            />
          ) : (
            <Message
              id="explore.list.empty"
              defaultMessage="No cats have been spotted in this part of the map. Zoom out or move the map to find some."
            />
          )}
        </p>
      ) : (
        <>
          <ul className="explore-list__items">
            {markers.map((marker) => (
              <li key={marker._id}>
                <ExploreListItem
                  marker={marker}
                  highlighted={marker._id === highlighted}
                  onHighlight={onHighlight}
                  onOpen={onOpen}
                />
              </li>
            ))}
          </ul>
          {clustered > 0 && (
            <p className="explore-list__more">
              <Message
                id="explore.list.zoomInMore"
                defaultMessage="Zoom in on the numbered circles to list the cats they hold as well."
              />
            </p>
          )}
        </>
      )}
    </aside>
  );
}

function ExploreListItem({
  marker,
  highlighted,
  onHighlight,
  onOpen,
}: {
  marker: MapMarker;
  highlighted: boolean;
  onHighlight: (postId: string | null) => void;
  onOpen: (marker: MapMarker) => void;
}) {
  const ref = useRef<HTMLButtonElement>(null);
  const t = useTranslate();
  // Highlighted from its marker: bring it into the list's view (never scrolls the page itself).
  useEffect(() => {
    const item = ref.current;
    if (!highlighted || !item || item.contains(document.activeElement)) return;
    const list = item.closest('.explore-list__items');
    if (!list) return;
    const box = item.getBoundingClientRect();
    const frame = list.getBoundingClientRect();
    if (box.top < frame.top) list.scrollTop -= frame.top - box.top;
    else if (box.bottom > frame.bottom) list.scrollTop += box.bottom - frame.bottom;
  }, [highlighted]);
  return (
    <button
      ref={ref}
      type="button"
      className={`explore-list__item${highlighted ? ' explore-list__item--highlighted' : ''}`}
      data-post-id={marker._id}
      onMouseEnter={() => onHighlight(marker._id)}
      onMouseLeave={() => onHighlight(null)}
      onFocus={() => onHighlight(marker._id)}
      onBlur={() => onHighlight(null)}
      onClick={() => onOpen(marker)}
    >
      <img
        className="explore-list__picture"
        src={marker.previewUrl}
        alt=""
        width={56}
        height={56}
        loading="lazy"
        decoding="async"
      />
      <span className="explore-list__text">
        <span className="explore-list__name">
          {marker.catName ?? t({ id: 'explore.list.noName', defaultMessage: 'A cat without a name' })}
        </span>
        <span className="explore-list__author">
          {t(
            { id: 'explore.list.spottedBy', defaultMessage: 'Spotted by {username}' },
            { username: marker.username },
          )}
        </span>
      </span>
      <RelativeTime className="explore-list__date" value={marker.createdAt} />
    </button>
  );
}
