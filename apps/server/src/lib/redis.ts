import type * as IORedis from 'ioredis';
import type { Redis } from 'ioredis';

/**
 * The Redis connection shared by everything that must agree across instances (rate-limit counters).
 * One client per URL, reference-counted: every app built in this process (tests build many) acquires it
 * when it starts and releases it when it closes; the last release disconnects.
 *
 * Redis is an accelerator here, never a dependency of correctness: commands fail within about a second
 * when it is unreachable (no endless offline queue), and callers fail open (see rate-limit.ts).
 */
const clients = new Map<string, { client: Redis; refs: number }>();

/** ioredis is loaded on first use: ~13 MB resident that a server without REDIS_URL never needs. */
let ioredis: Promise<typeof IORedis> | null = null;

export async function acquireRedis(url: string): Promise<Redis> {
  const { Redis } = await (ioredis ??= import('ioredis'));
  // From here on synchronous: concurrent callers for one URL share one client.
  const existing = clients.get(url);
  if (existing) {
    existing.refs += 1;
    return existing.client;
  }
  const client = new Redis(url, {
    // While disconnected, commands fail at once instead of queueing: a request never waits on a dead
    // Redis. Reconnection goes on in the background.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // Connection errors are reported per command; an unhandled 'error' event would crash the process.
  client.on('error', () => {});
  clients.set(url, { client, refs: 1 });
  return client;
}

/** Resolves when the client is connected, or after timeoutMs; never rejects (start-up must not depend on Redis). */
export function redisReady(client: Redis, timeoutMs = 2000): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    client.once('ready', done);
  });
}

/** The client acquireRedis opened for this URL; buildApp acquires it before any plugin asks. */
export function sharedRedis(url: string): Redis {
  const entry = clients.get(url);
  if (!entry) throw new Error('Redis was not acquired for this URL (buildApp does it when REDIS_URL is set)');
  return entry.client;
}

export async function releaseRedis(url: string): Promise<void> {
  const entry = clients.get(url);
  if (!entry) return;
  entry.refs -= 1;
  if (entry.refs > 0) return;
  clients.delete(url);
  // A client that never connected (or lost its server) has nothing to flush: drop it at once.
  if (entry.client.status !== 'ready') {
    entry.client.disconnect();
    return;
  }
  try {
    await entry.client.quit();
  } catch {
    entry.client.disconnect();
  }
}
