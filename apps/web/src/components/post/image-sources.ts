/**
 * Which variants a post image offers at which widths. Shared by PostImage and by the first feed
 * image's preload (lib/early-requests.ts): the preload is only reused when both ask for the same thing.
 */

/** Narrow screens choose among these; 1600 px is only offered on wide layouts (phones never get it). */
export const PHONE_WIDTHS = [300, 400, 800] as const;
export const WIDE_WIDTHS = [400, 800, 1600] as const;
/** Above this viewport width the card stops growing with the screen (var(--content-width)). */
export const WIDE_QUERY = '(min-width: 641px)';
/** The feed card's layout width. */
export const FEED_IMAGE_SIZES = '(min-width: 641px) 640px, 100vw';

export function srcSet(variants: Record<string, string>, widths: readonly number[]): string {
  return widths
    .filter((w) => variants[String(w)])
    .map((w) => `${variants[String(w)]} ${w}w`)
    .join(', ');
}
