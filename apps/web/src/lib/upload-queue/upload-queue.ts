import { useSyncExternalStore } from 'react';
import { DEMO_USER_ID, type Post } from '@cats/contracts';
import { ApiError } from '../api-client.ts';
import { authStore } from '../auth-store.ts';
import { translate } from '../../i18n/i18n-store.ts';
import { sendPost, type NewPost } from './new-post.ts';
import * as db from './queue-db.ts';
import type { StoredSighting } from './queue-db.ts';

/**
 * Issue 28: sightings made without a connection wait in IndexedDB and are sent, oldest first, when the
 * connection returns ('online', the app starting, and retries with backoff). Each keeps the idempotency
 * key it was first sent with, so an upload whose answer was lost never makes a second post. The queue
 * runs in the page (no service worker) and only ever sends the signed-in user's own sightings.
 */
export type SightingState =
  /** `serverTrouble`: the last try reached the server, which could not take it then (5xx, 408, 429). */
  | { kind: 'waiting'; serverTrouble?: boolean }
  | { kind: 'sending'; progress: number }
  | { kind: 'sent' }
  | { kind: 'failed'; message: string };

export interface QueueEntry {
  id: string;
  createdAt: number;
  image: Blob;
  state: SightingState;
}

export interface UploadQueueDeps {
  send: (post: NewPost, key: string, onProgress: (fraction: number) => void) => Promise<{ post: Post }>;
  currentUserId: () => string | null;
  isOnline: () => boolean;
  retryDelayMs?: (attempt: number) => number;
}

/** After a sighting is posted: the feed's caches, the cat 'New cat' asked for. */
export type OnSent = (post: Post, sighting: StoredSighting) => Promise<void> | void;

/** Nothing reached the server, or it could not answer now: the sighting waits and is sent again later. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof ApiError) {
    return err.status === null || err.status >= 500 || err.status === 408 || err.status === 429;
  }
  // fetch's 'Failed to fetch' and the like.
  return err instanceof TypeError;
}

const defaultDelay = (attempt: number) => Math.min(60_000, 2_000 * 2 ** attempt);

const imageOf = (s: StoredSighting) => new Blob([s.image.bytes], { type: s.image.type });

export function createUploadQueue(deps: UploadQueueDeps) {
  let owner: string | null = null;
  let entries: QueueEntry[] = [];
  let snapshot: { entries: readonly QueueEntry[] } = { entries };
  const listeners = new Set<() => void>();
  let running: Promise<void> | null = null;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let onSent: OnSent | null = null;
  // Discarded while a round was under way: that round read its list before, and must not send them.
  const discarded = new Set<string>();

  const emit = () => {
    snapshot = { entries };
    listeners.forEach((l) => l());
  };
  const setState = (id: string, state: SightingState) => {
    entries = entries.map((e) => (e.id === id ? { ...e, state } : e));
    emit();
  };

  /** Reads the signed-in user's sightings; another user's session starts from an empty list. */
  async function load(): Promise<void> {
    const userId = deps.currentUserId();
    if (userId !== owner) {
      owner = userId;
      entries = [];
    }
    if (!userId) return emit();
    const stored = await db.listSightings(userId);
    if (deps.currentUserId() !== userId) return;
    const known = new Map(entries.map((e) => [e.id, e]));
    const sent = entries.filter((e) => e.state.kind === 'sent');
    entries = [
      ...sent,
      ...stored.map(
        (s): QueueEntry =>
          known.get(s.id) ?? {
            id: s.id,
            createdAt: s.createdAt,
            image: imageOf(s),
            state: s.failure === null ? { kind: 'waiting' } : { kind: 'failed', message: s.failure },
          },
      ),
    ].sort((a, b) => a.createdAt - b.createdAt);
    emit();
  }

  function scheduleRetry() {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        void flush();
      },
      (deps.retryDelayMs ?? defaultDelay)(attempt),
    );
    attempt += 1;
  }

  async function run(): Promise<void> {
    const userId = deps.currentUserId();
    if (!userId || !deps.isOnline()) return;
    for (const sighting of await db.listSightings(userId)) {
      if (sighting.failure !== null || discarded.has(sighting.id)) continue;
      // Signed out or another account meanwhile: the rest waits for its own user.
      if (deps.currentUserId() !== userId) return;
      setState(sighting.id, { kind: 'sending', progress: 0 });
      let post: Post;
      try {
        ({ post } = await deps.send({ ...sighting.post, image: imageOf(sighting) }, sighting.id, (p) =>
          setState(sighting.id, { kind: 'sending', progress: p }),
        ));
      } catch (err) {
        // A session that ended while sending is no refusal of the picture either.
        if (isRetryable(err) || deps.currentUserId() !== userId) {
          const serverTrouble = err instanceof ApiError && err.status !== null;
          setState(sighting.id, serverTrouble ? { kind: 'waiting', serverTrouble } : { kind: 'waiting' });
          scheduleRetry();
          return;
        }
        const message = err instanceof Error ? err.message : String(err);
        await db.putSighting({ ...sighting, failure: message });
        setState(sighting.id, { kind: 'failed', message });
        continue;
      }
      attempt = 0;
      await db.deleteSighting(sighting.id);
      setState(sighting.id, { kind: 'sent' });
      try {
        await onSent?.(post, sighting);
      } catch {
        // The picture is posted; a cache refresh or the new cat's page failing changes nothing of that.
      }
    }
  }

  /** Sends what waits, one at a time; a call while a round runs joins that round. */
  function flush(): Promise<void> {
    running ??= run().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => snapshot,
    load,
    flush,

    /** Keeps a sighting for later (the demo account never gets here: it cannot post) and tries to send it. */
    async enqueue(post: NewPost, key: string, newCatName: string | null = null): Promise<void> {
      const userId = deps.currentUserId();
      if (!userId || userId === DEMO_USER_ID)
        throw new Error(
          translate({
            id: 'uploads.membersOnly',
            defaultMessage: 'Only a signed-in member can queue a picture',
          }),
        );
      const sighting: StoredSighting = {
        id: key,
        userId,
        createdAt: Date.now(),
        post: {
          catName: post.catName,
          comment: post.comment,
          altText: post.altText,
          coordinates: post.coordinates,
          showLocation: post.showLocation,
          exifData: post.exifData,
          groupIds: post.groupIds,
          catId: post.catId,
        },
        image: { bytes: await post.image.arrayBuffer(), type: post.image.type || 'image/jpeg' },
        newCatName,
        failure: null,
      };
      await db.putSighting(sighting);
      if (owner !== userId) await load();
      else {
        entries = [
          ...entries,
          { id: key, createdAt: sighting.createdAt, image: post.image, state: { kind: 'waiting' } },
        ];
        emit();
      }
      // Already in a backoff: the timer sends it; otherwise try now (the 'online' event may not come).
      if (!retryTimer) void flush();
    },

    /**
     * Drops a sighting the server refused, one still waiting that the user no longer wants, or a 'Sent'
     * line. Not one being sent: its upload may already have made the post (the list offers no button).
     */
    async discard(id: string): Promise<void> {
      if (entries.find((e) => e.id === id)?.state.kind === 'sending') return;
      discarded.add(id);
      await db.deleteSighting(id);
      entries = entries.filter((e) => e.id !== id);
      emit();
    },

    /** 'Try now': the person does not want to wait for the backoff (the connection is back, say). */
    retryNow(): Promise<void> {
      attempt = 0;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      return flush();
    },

    /**
     * Starts sending: now, whenever the browser comes back online, and when the signed-in user changes.
     * Returns the stop function.
     */
    start(callbacks: { onSent?: OnSent } = {}): () => void {
      onSent = callbacks.onSent ?? null;
      const online = () => {
        attempt = 0;
        if (retryTimer) clearTimeout(retryTimer);
        retryTimer = null;
        void flush();
      };
      window.addEventListener('online', online);
      const stopAuth = authStore.subscribe(() => {
        if (deps.currentUserId() !== owner) void load().then(flush);
      });
      void load().then(flush);
      return () => {
        window.removeEventListener('online', online);
        stopAuth();
        if (retryTimer) clearTimeout(retryTimer);
        retryTimer = null;
        onSent = null;
      };
    },
  };
}

export type UploadQueue = ReturnType<typeof createUploadQueue>;

/** The app's one queue. */
export const uploadQueue = createUploadQueue({
  send: sendPost,
  currentUserId: () => authStore.get().userId,
  isOnline: () => navigator.onLine,
});

export function useUploadQueue(queue: UploadQueue = uploadQueue): readonly QueueEntry[] {
  return useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot).entries;
}
