// @vitest-environment node
// Node's own Response, Blob and File, which work together as a browser's do (jsdom's File does not take Node's Blob).
import { describe, expect, it } from 'vitest';
import { SHARED_PHOTO_CACHE, SHARED_PHOTO_KEY } from './offline-cache-rules.ts';
import { takeSharedPhoto } from './shared-photo.ts';

/** A CacheStorage with one cache, enough for what Spot does with it. */
function fakeCaches(entries: Map<string, Response>) {
  const opened: string[] = [];
  const storage = {
    open: async (name: string) => {
      opened.push(name);
      return {
        match: async (key: string) => entries.get(key)?.clone(),
        delete: async (key: string) => entries.delete(key),
      };
    },
  } as unknown as CacheStorage;
  return { storage, opened };
}

describe('takeSharedPhoto', () => {
  it('hands over the shared photo with its name and type, once', async () => {
    const entries = new Map([
      [
        SHARED_PHOTO_KEY,
        new Response(new Uint8Array([0xff, 0xd8, 0xff]), {
          headers: { 'content-type': 'image/jpeg', 'x-file-name': encodeURIComponent('Tom on the wall.jpg') },
        }),
      ],
    ]);
    const { storage, opened } = fakeCaches(entries);
    const file = await takeSharedPhoto(storage);
    expect(opened).toEqual([SHARED_PHOTO_CACHE]);
    expect(file?.name).toBe('Tom on the wall.jpg');
    expect(file?.type).toBe('image/jpeg');
    expect(file?.size).toBe(3);
    expect(await takeSharedPhoto(storage)).toBeNull();
  });

  it('answers null when nothing was shared or there is no cache storage', async () => {
    expect(await takeSharedPhoto(fakeCaches(new Map()).storage)).toBeNull();
    expect(await takeSharedPhoto(undefined)).toBeNull();
  });
});
