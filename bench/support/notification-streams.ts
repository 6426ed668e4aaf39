/**
 * Issue 25's live notifications under the bench (docs/performance.md, "Notification streams"): 2,000
 * open streams on each instance, their RSS, the time from a like committed through instance A to its
 * event on a stream held open on instance B, and the feed's p99 at 50 connections while they are
 * open. On PGlite there is one instance, so A and B are the same process.
 */
import { createHash } from 'node:crypto';
import type { NotificationsResponse, PagedPostsResponse } from '@cats/contracts';
import { deriveSessionKeys } from '../../apps/server/src/plugins/auth.ts';
import { IDLE_GC_DELAY_MS } from '../../apps/server/src/plugins/idle-gc.ts';
import { signStreamTicket } from '../../apps/server/src/modules/notifications/stream-ticket.ts';
import { openSse, type SseStream } from '../../apps/server/test/sse-client.ts';
import { measure, pick, request, type LoadFigures } from './load.ts';
import { settle, type LoadPlan, type Viewer } from './scenarios.ts';
import { BENCH_PASSWORD, benchEmail } from './dataset.ts';
import { benchLogin, rssMb } from './server.ts';

export interface StreamPlan {
  /** Streams held open on each instance. */
  perInstance: number;
  /** Likes timed from A to B. */
  samples: number;
  /** Likes under way at once (each to a different author). */
  concurrency: number;
}

export const STREAM_PLAN: StreamPlan = { perInstance: 2000, samples: 200, concurrency: 4 };

export interface InstanceRss {
  url: string;
  /** The first round, on the idle instance: first-time costs included. */
  coldBeforeMb: number;
  coldWithMb: number;
  coldExtraMb: number;
  /** The second round. */
  beforeMb: number;
  withStreamsMb: number;
  extraMb: number;
}

export interface StreamFigures {
  instances: number;
  streamsPerInstance: number;
  /** Users holding them (each holds streamsPerInstance / users on every instance: tabs, devices). */
  users: number;
  /** Wall time to open all of them (tickets checked, replay and unread count sent), the second time. */
  openMs: number;
  rss: InstanceRss[];
  likeToEvent: {
    samples: number;
    /** Likes whose event did not arrive within 5 s. */
    missed: number;
    p50Ms: number;
    p95Ms: number;
    p99Ms: number;
    maxMs: number;
  };
  /** Feed page 1 on A at the plan's connections while every stream is open. */
  feedWhileOpen: LoadFigures;
  /** The same load without streams, just before they opened and right after they closed. */
  feedBefore: LoadFigures;
  feedAfter: LoadFigures;
}

/** md5('bench-user-' || n)::uuid, as the dataset makes the ids (dataset.ts). */
function benchUserId(n: number): string {
  const hex = createHash('md5').update(`bench-user-${n}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether the dataset's blocks (dataset.ts: user u blocks 1 + (u*7 + k*13) % U) stand between a and b. */
function blockedEitherWay(a: number, b: number, users: number, blocksPerUser: number): boolean {
  const blocks = (u: number, v: number) => {
    for (let k = 1; k <= blocksPerUser; k += 1) if (1 + ((u * 7 + k * 13) % users) === v) return true;
    return false;
  };
  return blocks(a, b) || blocks(b, a);
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}

export async function measureNotificationStreams(opts: {
  /** Instance A (the bench's server) and, on PostgreSQL, B (a second process on the same database). */
  instances: { url: string; pid: number }[];
  jwtSecret: string;
  viewers: Viewer[];
  dataset: { users: number; blocksPerUser: number };
  plan: StreamPlan;
  feedPlan: LoadPlan;
  log: (line: string) => void;
}): Promise<StreamFigures> {
  const { instances, viewers, dataset, plan, log } = opts;
  const a = instances[0]!;
  const b = instances.at(-1)!;
  const key = deriveSessionKeys(opts.jwtSecret).streamTicket;
  // Tickets are minted with the server's own code and secret (as POST /stream-ticket would): the
  // figures are about the streams, not about 4,000 logins.
  // Bench accounts never change their password: generation 0.
  const ticket = (userId: string) =>
    signStreamTicket(key, { userId, generation: 0 }, new Date(Date.now() + 60_000));

  // Stream holders: every bench user but the likers (the viewers), round-robin until each instance
  // holds plan.perInstance streams.
  const likers = new Set(viewers.map((v) => v.n));
  const holders = Array.from({ length: dataset.users }, (_, i) => i + 1).filter((n) => !likers.has(n));
  let current = viewers[0]!;
  const feed = () =>
    measure({
      url: a.url,
      connections: opts.feedPlan.connections,
      durationS: opts.feedPlan.durationS,
      warmupS: opts.feedPlan.warmupS,
      requests: [
        request(
          'GET',
          () => {
            current = pick(viewers);
            return '/api/feed/1';
          },
          () => ({ authorization: `Bearer ${current.token}` }),
        ),
      ],
    });
  const openAll = async () => {
    const byInstance = new Map<string, Map<number, SseStream[]>>();
    const all: SseStream[] = [];
    const started = performance.now();
    for (const instance of instances) {
      const streams = new Map<number, SseStream[]>();
      byInstance.set(instance.url, streams);
      const slots = Array.from({ length: plan.perInstance }, (_, k) => holders[k % holders.length]!);
      await inBatches(slots, 50, async (n) => {
        const stream = await openSse(
          `${instance.url}/api/notifications/stream?ticket=${ticket(benchUserId(n))}`,
        );
        all.push(stream);
        if (stream.status !== 200)
          throw new Error(`stream of bench user ${n}: ${stream.status} ${JSON.stringify(stream.body)}`);
        await stream.next(30_000); // its unread count: the replay is done, live events come next
        streams.set(n, [...(streams.get(n) ?? []), stream]);
      });
    }
    return { byInstance, all, ms: Math.round(performance.now() - started) };
  };
  // Readings are taken once the server has collected its garbage (idle-gc.ts: IDLE_GC_DELAY_MS after
  // the last answer; the streams' opening answers no request to completion, settle()'s does) and
  // jemalloc has returned the freed pages (within a second).
  const quiet = async () => {
    await settle(a.url);
    if (b !== a) await fetch(`${b.url}/api/health`);
    await new Promise((r) => setTimeout(r, IDLE_GC_DELAY_MS + 2500));
  };

  // A first round opens them on idle instances (the cold reading: it includes first-time costs such as
  // compiled code, query plans, PGlite's heap and V8's heap growth), then closes them; the second
  // round's reading shows what open streams hold once those are paid.
  await quiet();
  const coldBeforeMb = instances.map((i) => rssMb(i.pid));
  const warm = await openAll();
  await quiet();
  const coldWithMb = instances.map((i) => rssMb(i.pid));
  for (const stream of warm.all) stream.close();
  // The feed loads only need the server settled (no RSS is read before them): 7.5 s less each.
  await settle(a.url);
  const feedBefore = await feed();
  await quiet();
  const beforeMb = instances.map((i) => rssMb(i.pid));
  const { byInstance, all, ms: openMs } = await openAll();
  log(
    `notification streams: ${all.length} open (${plan.perInstance} on each of ${instances.length} instance(s), ` +
      `${holders.length} users) in ${openMs} ms (the first time: ${warm.ms} ms)`,
  );
  let closed = false;
  try {
    await quiet();
    const rss = instances.map((instance, i) => {
      const withStreamsMb = rssMb(instance.pid);
      const tenth = (v: number) => Math.round(v * 10) / 10;
      return {
        url: instance.url,
        coldBeforeMb: coldBeforeMb[i]!,
        coldWithMb: coldWithMb[i]!,
        coldExtraMb: tenth(coldWithMb[i]! - coldBeforeMb[i]!),
        beforeMb: beforeMb[i]!,
        withStreamsMb,
        extraMb: tenth(withStreamsMb - beforeMb[i]!),
      };
    });
    log(
      `  RSS per instance, first round: ${rss.map((r) => `${r.coldBeforeMb} -> ${r.coldWithMb} MB (+${r.coldExtraMb})`).join(', ')}; ` +
        `second: ${rss.map((r) => `${r.beforeMb} -> ${r.withStreamsMb} MB (+${r.extraMb})`).join(', ')}`,
    );

    // Each worker likes posts of its own authors (no two likes under way for one author's streams).
    const authors = holders.slice(0, Math.min(holders.length, 40));
    const postsOf = new Map<number, string[]>();
    for (const n of authors) {
      const res = await fetch(`${a.url}/api/profile/getPosts?user=${benchUserId(n)}&pagenum=1`, {
        headers: { authorization: `Bearer ${viewers[0]!.token}` },
      });
      const body = (await res.json()) as PagedPostsResponse;
      if (body.posts?.length)
        postsOf.set(
          n,
          body.posts.map((p) => p._id),
        );
    }
    const timings: number[] = [];
    let missed = 0;
    let untold = 0;
    /** Whether the author's notifications list the like (their entry for the post names the liker). */
    const listed = async (author: number, postId: string, liker: Viewer): Promise<boolean> => {
      const headers = await benchLogin(a.url, benchEmail(author), BENCH_PASSWORD);
      const res = await fetch(`${a.url}/api/notifications`, { headers });
      if (!res.ok)
        throw new Error(`notifications of bench user ${author}: ${res.status} ${await res.text()}`);
      const { notifications } = (await res.json()) as NotificationsResponse;
      const entry = notifications.find((n) => n.type === 'like' && n.post?._id === postId);
      return entry !== undefined && entry.actors.some((actor) => actor._id === liker.userId);
    };
    const bStreams = byInstance.get(b.url)!;
    const like = async (liker: Viewer, postId: string) => {
      const res = await fetch(`${a.url}/api/posts/likePost/${postId}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${liker.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      // A post the liker has hidden is not found for them: another pair is taken.
      if (res.status === 404) return 'hidden';
      if (!res.ok) throw new Error(`like: ${res.status} ${await res.text()}`);
      const { updatedPost } = (await res.json()) as { updatedPost: { greatCat: string[] } };
      return updatedPost.greatCat.includes(liker.userId) ? 'liked' : 'unliked';
    };
    const workers = Array.from({ length: plan.concurrency }, (_, w) =>
      authors.filter((n, i) => i % plan.concurrency === w && postsOf.has(n)),
    );
    let taken = 0;
    await Promise.all(
      workers.map(async (mine) => {
        while (taken < plan.samples && mine.length > 0) {
          taken += 1;
          const author = pick(mine);
          const liker = pick(
            viewers.filter((v) => !blockedEitherWay(v.n, author, dataset.users, dataset.blocksPerUser)),
          );
          const postId = pick(postsOf.get(author)!);
          const stream = bStreams.get(author)![0]!;
          // A toggle that took an older like away is done again: the second one is the like.
          for (let attempt = 0; attempt < 2; attempt += 1) {
            const seen = stream.events.length;
            const started = performance.now();
            const toggled = await like(liker, postId);
            if (toggled === 'hidden') {
              taken -= 1;
              break;
            }
            if (toggled === 'unliked') continue;
            try {
              await stream.waitFor(
                (events) =>
                  events.slice(seen).some((e) => e.event === 'notification' && e.data.includes(postId)),
                5_000,
                'the like',
              );
              timings.push(performance.now() - started);
            } catch {
              // A like the author is never told of (they hid the post, say: the dataset's hides are
              // random) is no lost event. What the author's list says tells the two apart.
              if (await listed(author, postId, liker)) missed += 1;
              else untold += 1;
            }
            break;
          }
        }
      }),
    );
    const sorted = [...timings].sort((x, y) => x - y);
    const round = (v: number) => Math.round(v * 10) / 10;
    const likeToEvent = {
      samples: timings.length,
      missed,
      p50Ms: round(percentile(sorted, 50)),
      p95Ms: round(percentile(sorted, 95)),
      p99Ms: round(percentile(sorted, 99)),
      maxMs: round(sorted.at(-1) ?? NaN),
    };
    log(
      `  like on ${instances.length > 1 ? 'A' : 'the server'} to its event on ${instances.length > 1 ? "B's" : 'a'} stream: ` +
        `p50 ${likeToEvent.p50Ms} ms, p95 ${likeToEvent.p95Ms} ms, max ${likeToEvent.maxMs} ms (${likeToEvent.samples} likes, ${missed} missed` +
        `${untold > 0 ? `; ${untold} not notified, as the author's list confirms` : ''})`,
    );

    await settle(a.url);
    const feedWhileOpen = await feed();
    const ended = all.filter((stream) => stream.isEnded()).length;
    if (ended > 0) throw new Error(`${ended} streams ended during the measurements`);
    // The same load once they are closed, under the same conditions (the machine is shared).
    for (const stream of all) stream.close();
    closed = true;
    await settle(a.url);
    const feedAfter = await feed();
    log(
      `  feed page 1 with the streams open: p99 ${feedWhileOpen.p99Ms} ms, ${feedWhileOpen.rps} req/s, errors ` +
        `${feedWhileOpen.errors}; without, before and after: p99 ${feedBefore.p99Ms} and ${feedAfter.p99Ms} ms, ` +
        `${feedBefore.rps} and ${feedAfter.rps} req/s`,
    );
    return {
      instances: instances.length,
      streamsPerInstance: plan.perInstance,
      users: holders.length,
      openMs,
      rss,
      likeToEvent,
      feedWhileOpen,
      feedBefore,
      feedAfter,
    };
  } finally {
    if (!closed) for (const stream of all) stream.close();
  }
}
