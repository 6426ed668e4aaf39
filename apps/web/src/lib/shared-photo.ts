import { SHARED_PHOTO_CACHE, SHARED_PHOTO_KEY } from './offline-cache-rules.ts';

/**
 * The photo another app shared to Neighbourhood Cats (Web Share Target, issue 28): the service worker
 * put it in a cache and sent the person to /spot?shared=1. Taken once: it is removed as it is read,
 * so a reload or a later visit to Spot does not bring it back. Null when there is none.
 */
export async function takeSharedPhoto(
  storage: CacheStorage | undefined = globalThis.caches,
): Promise<File | null> {
  if (!storage) return null;
  try {
    const cache = await storage.open(SHARED_PHOTO_CACHE);
    const response = await cache.match(SHARED_PHOTO_KEY);
    if (!response) return null;
    await cache.delete(SHARED_PHOTO_KEY);
    const blob = await response.blob();
    const name = decodeURIComponent(response.headers.get('x-file-name') ?? '') || 'shared-photo';
    return new File([blob], name, { type: response.headers.get('content-type') ?? blob.type });
  } catch {
    // Storage unavailable: Spot offers the picker as usual.
    return null;
  }
}
