import { useId } from 'react';
import type { Post } from '@cats/contracts';
import { useToggleLocation } from './api/toggle-location.ts';
import { errorMessage } from './api/errors.ts';
import { Message, useTranslate } from '../../i18n/message.tsx';
import { defineMessage } from '../../i18n/i18n-store.ts';

export const LOCATION_TOOLTIPS = {
  missing: defineMessage({ id: 'post.location.tooltip.missing', defaultMessage: 'No GPS data available' }),
  activate: defineMessage({
    id: 'post.location.tooltip.activate',
    defaultMessage: 'Activate to show location on map',
  }),
  deactivate: defineMessage({
    id: 'post.location.tooltip.deactivate',
    defaultMessage: 'Deactivate to hide location on map',
  }),
  locked: defineMessage({
    id: 'post.location.tooltip.locked',
    defaultMessage: 'A moderator hid this location',
  }),
} as const;

/** Whether the post has coordinates to show at all (spec: 'No GPS data available' otherwise). */
export const hasGps = (post: Pick<Post, 'latitude' | 'longitude'>): boolean =>
  Number.isFinite(post.latitude) && Number.isFinite(post.longitude);

/** Own posts only (spec section 6): shows or hides the post's location on the map. */
export function LocationToggle({ post }: { post: Post }) {
  const t = useTranslate();
  const toggle = useToggleLocation();
  const tooltipId = useId();
  const located = hasGps(post);
  // Issue 27: while a moderator's 'hide location' stands, the server refuses to show it again.
  const locked = post.locationLocked === true;
  const tooltip = t(
    !located
      ? LOCATION_TOOLTIPS.missing
      : locked
        ? LOCATION_TOOLTIPS.locked
        : post.showLocation
          ? LOCATION_TOOLTIPS.deactivate
          : LOCATION_TOOLTIPS.activate,
  );
  const on = located && post.showLocation;
  return (
    // The wrapper shows the tooltip on hover and focus; a disabled button takes no focus or pointer
    // events itself, so then the wrapper becomes focusable to let keyboard and touch users read why.
    <span className="post-location" tabIndex={located && !locked ? undefined : 0}>
      <button
        type="button"
        role="switch"
        className={`post-location__switch${on ? ' post-location__switch--on' : ''}`}
        aria-checked={on}
        aria-label={t({ id: 'post.location.label', defaultMessage: 'Location on map' })}
        aria-describedby={tooltipId}
        disabled={!located || locked || toggle.isPending}
        onClick={() => toggle.mutate(post._id)}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path d="M12 2a7 7 0 0 0-7 7c0 5 7 13 7 13s7-8 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5z" />
        </svg>
        <span className="post-location__state" aria-hidden="true">
          {on ? (
            <Message id="post.location.on" defaultMessage="On map" />
          ) : (
            <Message id="post.location.off" defaultMessage="Not on map" />
          )}
        </span>
      </button>
      <span id={tooltipId} role="tooltip" className="post-location__tooltip">
        {tooltip}
      </span>
      {toggle.isError && (
        <span className="post-location__error" role="alert">
          {errorMessage(toggle.error)}
        </span>
      )}
    </span>
  );
}
