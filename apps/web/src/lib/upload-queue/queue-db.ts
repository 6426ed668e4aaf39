import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { NewPost } from './new-post.ts';

/**
 * A sighting waiting in IndexedDB (issue 28): it outlives the tab. The picture is kept as bytes, which
 * every IndexedDB stores (a Blob is not structured-cloneable everywhere).
 */
export interface StoredSighting {
  /** Also the Idempotency-Key every attempt sends. */
  id: string;
  /** Whose session made it: only that user's session sends it. */
  userId: string;
  createdAt: number;
  post: Omit<NewPost, 'image'>;
  image: { bytes: ArrayBuffer; type: string };
  /** 'New cat' chosen on Spot: the cat's page is made once the picture is posted. */
  newCatName: string | null;
  /** The server refused it (4xx): its message, kept until the user discards the sighting. */
  failure: string | null;
}

interface QueueSchema extends DBSchema {
  sightings: { key: string; value: StoredSighting; indexes: { byUser: string } };
}

const DB_NAME = 'cats-upload-queue';
let opening: Promise<IDBPDatabase<QueueSchema>> | null = null;

/**
 * idb is imported statically on purpose: this module is only reached from the members' code (the lazy
 * member navigation and Spot), so the landing page never downloads it, and a chunk fetched on demand
 * would fail exactly when it is needed, offline. A failed open is forgotten, so the next call tries again.
 */
function open(): Promise<IDBPDatabase<QueueSchema>> {
  opening ??= openDB<QueueSchema>(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore('sightings', { keyPath: 'id' }).createIndex('byUser', 'userId');
    },
  }).catch((err: unknown) => {
    opening = null;
    throw err;
  });
  return opening;
}

export async function putSighting(sighting: StoredSighting): Promise<void> {
  await (await open()).put('sightings', sighting);
}

/** One user's sightings, oldest first: the order they are sent in. */
export async function listSightings(userId: string): Promise<StoredSighting[]> {
  const all = await (await open()).getAllFromIndex('sightings', 'byUser', userId);
  return all.sort((a, b) => a.createdAt - b.createdAt);
}

export async function deleteSighting(id: string): Promise<void> {
  await (await open()).delete('sightings', id);
}

/** Tests start from an empty database. */
export async function closeQueueDb(): Promise<void> {
  if (opening) (await opening).close();
  opening = null;
}
