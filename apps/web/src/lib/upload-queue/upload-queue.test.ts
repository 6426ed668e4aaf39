import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_USER_ID, type Post } from '@cats/contracts';
import { ApiError, NO_SERVER_RESPONSE } from '../api-client.ts';
import type { NewPost } from './new-post.ts';
import { closeQueueDb, listSightings } from './queue-db.ts';
import { createUploadQueue, type UploadQueue } from './upload-queue.ts';

const ALICE = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';

const sighting = (comment: string): NewPost => ({
  image: new Blob([`jpeg bytes of ${comment}`], { type: 'image/jpeg' }),
  catName: 'Tom',
  comment,
  altText: '',
  coordinates: { latitude: 51.5, longitude: -0.12 },
  showLocation: false,
  exifData: {},
  groupIds: [],
  catId: null,
});

interface Sent {
  comment: string;
  key: string;
  image: string;
}

let user: string | null;
let online: boolean;
let sent: Sent[];
let answer: (post: NewPost, key: string) => Promise<{ post: Post }>;

const post = (id: string) => ({ post: { _id: id } as Post });

function makeQueue(): UploadQueue {
  return createUploadQueue({
    currentUserId: () => user,
    isOnline: () => online,
    retryDelayMs: () => 5,
    send: async (p, key, onProgress) => {
      onProgress(0.5);
      sent.push({ comment: p.comment, key, image: await p.image.text() });
      return answer(p, key);
    },
  });
}

const states = (queue: UploadQueue) => queue.getSnapshot().entries.map((e) => e.state.kind);

beforeEach(async () => {
  user = ALICE;
  online = false;
  sent = [];
  answer = async (_p, key) => post(`post-${key}`);
  indexedDB.deleteDatabase('cats-upload-queue');
});
afterEach(async () => {
  await closeQueueDb();
  indexedDB.deleteDatabase('cats-upload-queue');
});

describe('upload queue (issue 28)', () => {
  it('keeps sightings made offline and sends them in order, each with its own key, once online', async () => {
    const queue = makeQueue();
    await queue.load();
    await queue.enqueue(sighting('first'), 'key-1');
    await queue.enqueue(sighting('second'), 'key-2');
    expect(states(queue)).toEqual(['waiting', 'waiting']);
    expect(sent).toEqual([]);

    online = true;
    await queue.flush();
    expect(sent).toEqual([
      { comment: 'first', key: 'key-1', image: 'jpeg bytes of first' },
      { comment: 'second', key: 'key-2', image: 'jpeg bytes of second' },
    ]);
    expect(states(queue)).toEqual(['sent', 'sent']);
    expect(await listSightings(ALICE)).toEqual([]);
  });

  it('survives closing the app: a new queue on the same database finds what waits', async () => {
    await makeQueue().enqueue(sighting('kept'), 'key-kept');
    await closeQueueDb();
    const reopened = makeQueue();
    await reopened.load();
    expect(states(reopened)).toEqual(['waiting']);
    expect(await reopened.getSnapshot().entries[0]!.image.text()).toBe('jpeg bytes of kept');
    online = true;
    await reopened.flush();
    expect(sent.map((s) => s.key)).toEqual(['key-kept']);
  });

  it("never sends one user's sightings with another user's session", async () => {
    const queue = makeQueue();
    await queue.enqueue(sighting("alice's"), 'key-alice');
    user = BOB;
    online = true;
    await queue.load();
    expect(queue.getSnapshot().entries).toEqual([]);
    await queue.flush();
    expect(sent).toEqual([]);
    user = ALICE;
    await queue.load();
    await queue.flush();
    expect(sent.map((s) => s.key)).toEqual(['key-alice']);
  });

  it('keeps a sighting after a network failure and sends it again with the same key', async () => {
    online = true;
    let failures = 1;
    answer = async (_p, key) => {
      if (failures-- > 0) throw new ApiError(null, NO_SERVER_RESPONSE);
      return post(`post-${key}`);
    };
    const queue = makeQueue();
    await queue.load();
    await queue.enqueue(sighting('flaky'), 'key-flaky');
    await vi.waitFor(() => expect(states(queue)).toEqual(['sent']));
    expect(sent.map((s) => s.key)).toEqual(['key-flaky', 'key-flaky']);
    expect(await listSightings(ALICE)).toEqual([]);
  });

  it("shows the server's refusal, keeps the sighting until discarded, and goes on with the next", async () => {
    online = true;
    answer = async (p, key) => {
      if (p.comment === 'refused') throw new ApiError(400, 'Cat name is too long');
      return post(`post-${key}`);
    };
    const queue = makeQueue();
    await queue.load();
    online = false;
    await queue.enqueue(sighting('refused'), 'key-refused');
    await queue.enqueue(sighting('fine'), 'key-fine');
    online = true;
    await queue.flush();
    expect(queue.getSnapshot().entries.map((e) => e.state)).toEqual([
      { kind: 'failed', message: 'Cat name is too long' },
      { kind: 'sent' },
    ]);

    // Still there after a reload, with its message, and not sent again.
    await closeQueueDb();
    const reopened = makeQueue();
    await reopened.load();
    expect(reopened.getSnapshot().entries.map((e) => e.state)).toEqual([
      { kind: 'failed', message: 'Cat name is too long' },
    ]);
    await reopened.flush();
    expect(sent.filter((s) => s.key === 'key-refused')).toHaveLength(1);
    await reopened.discard('key-refused');
    expect(reopened.getSnapshot().entries).toEqual([]);
    expect(await listSightings(ALICE)).toEqual([]);
  });

  it('says when the server could not take a sighting, and sends it again later with the same key', async () => {
    online = true;
    let failures = 2;
    answer = async (_p, key) => {
      if (failures-- > 0) throw new ApiError(503, 'Service unavailable');
      return post(`post-${key}`);
    };
    const queue = makeQueue();
    await queue.load();
    const seen: unknown[] = [];
    queue.subscribe(() => seen.push(queue.getSnapshot().entries[0]?.state));
    await queue.enqueue(sighting('busy'), 'key-busy');
    await vi.waitFor(() => expect(states(queue)).toEqual(['sent']));
    expect(seen).toContainEqual({ kind: 'waiting', serverTrouble: true });
    expect(sent.map((s) => s.key)).toEqual(['key-busy', 'key-busy', 'key-busy']);
  });

  it('lets the person discard a waiting sighting, even while a round is sending the one before it', async () => {
    online = true;
    let releaseFirst: (() => void) | null = null;
    answer = async (p, key) => {
      if (p.comment === 'first') await new Promise<void>((resolve) => (releaseFirst = resolve));
      return post(`post-${key}`);
    };
    const queue = makeQueue();
    await queue.load();
    online = false;
    await queue.enqueue(sighting('first'), 'key-first');
    await queue.enqueue(sighting('unwanted'), 'key-unwanted');
    online = true;
    const round = queue.flush();
    await vi.waitFor(() => expect(states(queue)).toEqual(['sending', 'waiting']));
    // The one being sent cannot be discarded: its post may already exist.
    await queue.discard('key-first');
    await queue.discard('key-unwanted');
    expect(states(queue)).toEqual(['sending']);
    releaseFirst!();
    await round;
    expect(sent.map((s) => s.key)).toEqual(['key-first']);
    expect(states(queue)).toEqual(['sent']);
    expect(await listSightings(ALICE)).toEqual([]);
  });

  it("'Try now' sends at once instead of waiting out the backoff", async () => {
    online = true;
    let failures = 1;
    answer = async (_p, key) => {
      if (failures-- > 0) throw new ApiError(null, NO_SERVER_RESPONSE);
      return post(`post-${key}`);
    };
    const queue = createUploadQueue({
      currentUserId: () => user,
      isOnline: () => online,
      retryDelayMs: () => 3_600_000,
      send: async (p, key) => {
        sent.push({ comment: p.comment, key, image: await p.image.text() });
        return answer(p, key);
      },
    });
    await queue.load();
    await queue.enqueue(sighting('now'), 'key-now');
    // The first try failed and the next waits an hour.
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    await vi.waitFor(() => expect(states(queue)).toEqual(['waiting']));
    await queue.retryNow();
    expect(states(queue)).toEqual(['sent']);
    expect(sent.map((s) => s.key)).toEqual(['key-now', 'key-now']);
  });

  it('queues nothing for the demo account or without a session', async () => {
    const queue = makeQueue();
    user = DEMO_USER_ID;
    await expect(queue.enqueue(sighting('demo'), 'key-demo')).rejects.toThrow();
    user = null;
    await expect(queue.enqueue(sighting('nobody'), 'key-nobody')).rejects.toThrow();
    expect(await listSightings(DEMO_USER_ID)).toEqual([]);
  });
});
