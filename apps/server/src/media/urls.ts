/**
 * Public URL of a stored media object. Media is served by this app under /media (from local disk or
 * proxied from S3), or straight from a CDN / public bucket when S3_PUBLIC_URL is set. Keys are
 * written once and never reused for other bytes, so the URLs are immutable.
 */
export function mediaUrl(publicBase: string | undefined, key: string): string {
  return publicBase ? `${publicBase.replace(/\/$/, '')}/${key}` : `/media/${key}`;
}

/** Key of one variant of an image stored under `prefix` (posts/<hex> or avatars/<hex>). */
export const variantKey = (prefix: string, width: number): string => `${prefix}/${width}.webp`;
