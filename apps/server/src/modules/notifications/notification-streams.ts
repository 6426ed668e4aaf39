import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { DEMO_USER_ID, NOTIFICATION_HEARTBEAT_SECONDS, NOTIFICATION_REPLAY_LIMIT } from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import { HttpError } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { PRIVATE_ANSWER_CACHE_CONTROL } from '../../plugins/private-answers.ts';
import { SERVICE_UNAVAILABLE_MESSAGE } from '../../plugins/error-handler.ts';
import type { NotificationEvent } from './notification-events.ts';
import * as repo from './notifications.repository.ts';
import { toNotification } from './notifications.service.ts';

/**
 * A client that leaves this much unread in its socket is cut off rather than buffered for: it
 * reconnects with Last-Event-ID and the replay gives it what it missed.
 */
const MAX_UNSENT_BYTES = 256 * 1024;
/**
 * EventSource waits `retry` ms before reconnecting. Spread over a few seconds, so that the streams of
 * an instance that restarts do not all come back in the same instant.
 */
const RETRY_MIN_MS = 2_000;
const RETRY_SPREAD_MS = 3_000;

interface Stream {
  res: ServerResponse;
  /**
   * Every entry with a seq up to this one has reached this client or was not its to see: the replay
   * after a reconnect starts here, and live events at or below it are not sent again.
   */
  sentSeq: number;
  /** The unread count last sent; -1 before the first. */
  unread: number;
  /** Its headers and first replay are out: heartbeats and live batches reach it. */
  live: boolean;
  closed: boolean;
  /**
   * Ended by the per-user cap before its answer began: its open job answers with `superseded` alone.
   */
  superseded: boolean;
}

type LiveEvent = Exclude<NotificationEvent, { kind: 'resync' }>;

type Job =
  | {
      kind: 'open';
      stream: Stream;
      after: number | null;
      reply: FastifyReply;
      resolve: () => void;
      reject: (err: unknown) => void;
    }
  /** Replay after the stream's sentSeq: the listener missed NOTIFYs (notification-events.ts). */
  | { kind: 'catch-up'; stream: Stream }
  | { kind: 'event'; event: LiveEvent };

/**
 * One user's open streams (their tabs and devices) and the work waiting for them, done one job at a
 * time in arrival order: an opening stream's replay is queued behind what came before and ahead of
 * what comes after, so nothing that commits during a replay is lost or sent twice (sentSeq).
 */
interface UserStreams {
  viewer: AuthContext;
  streams: Set<Stream>;
  jobs: Job[];
  running: boolean;
  scheduled: boolean;
}

export interface NotificationStreamsOptions {
  db: Database;
  /** S3_PUBLIC_URL or undefined: where the thumbnails' URLs point. */
  publicBase: string | undefined;
  log: FastifyBaseLogger;
  /** Between two heartbeats; NOTIFICATION_HEARTBEAT_SECONDS unless a test asks for less. */
  heartbeatMs?: number;
  /**
   * One user's open streams on this instance (NOTIFICATION_STREAMS_PER_USER, issue 46): their tabs and
   * devices. Opening one more ends the oldest, so one ticket holder cannot pile up streams.
   */
  perUser: number;
}

export const STREAM_CLOSING_MESSAGE = SERVICE_UNAVAILABLE_MESSAGE;

const sse = {
  notification: (text: string, seq: number) => `id: ${seq}\nevent: notification\ndata: ${text}\n\n`,
  removed: (id: string) => `event: removed\ndata: ${JSON.stringify({ _id: id })}\n\n`,
  unread: (count: number, seq: number) => `id: ${seq}\nevent: unread\ndata: ${JSON.stringify({ count })}\n\n`,
  heartbeat: ':\n\n',
  superseded: 'event: superseded\ndata: {}\n\n',
};

/**
 * The open notification streams of this instance (issue 25), fed by its one database listener
 * (notification-events.ts). A stream costs its socket, one small object and a place in a set: the
 * heartbeat is one interval for all of them, and what a NOTIFY announces is read once per user and
 * batch (one query for all the seqs that arrived together, one for the unread count), however many
 * of that user's streams are open.
 */
export class NotificationStreams {
  readonly #db: Database;
  readonly #publicBase: string | undefined;
  readonly #log: FastifyBaseLogger;
  readonly #heartbeatMs: number;
  readonly #perUser: number;
  readonly #users = new Map<string, UserStreams>();
  #count = 0;
  #heartbeat: NodeJS.Timeout | null = null;
  #closing = false;

  constructor(opts: NotificationStreamsOptions) {
    this.#db = opts.db;
    this.#publicBase = opts.publicBase;
    this.#log = opts.log;
    this.#heartbeatMs = opts.heartbeatMs ?? NOTIFICATION_HEARTBEAT_SECONDS * 1000;
    this.#perUser = opts.perUser;
  }

  /** Streams open on this instance (opening ones included). */
  get size(): number {
    return this.#count;
  }

  /** Streams of this user whose replay is out and which receive live events. */
  liveCount(userId: string): number {
    let n = 0;
    for (const stream of this.#users.get(userId)?.streams ?? []) if (stream.live && !stream.closed) n += 1;
    return n;
  }

  /**
   * Opens a stream on `reply` for the user: replays what changed after `after` (nothing when null),
   * sends the unread count, then keeps it open for live events. Resolves once the answer has started
   * (the reply is hijacked); rejects before that, with nothing sent, when the database cannot be read
   * (the route answers 503 and EventSource's owner retries) or the app is closing.
   */
  open(userId: string, after: number | null, reply: FastifyReply): Promise<void> {
    if (this.#closing) return Promise.reject(new HttpError(503, STREAM_CLOSING_MESSAGE));
    const stream: Stream = {
      res: reply.raw,
      sentSeq: 0,
      unread: -1,
      live: false,
      closed: false,
      superseded: false,
    };
    let user = this.#users.get(userId);
    if (!user) {
      user = {
        viewer: { userId, isDemo: userId === DEMO_USER_ID },
        streams: new Set(),
        jobs: [],
        running: false,
        scheduled: false,
      };
      this.#users.set(userId, user);
    }
    const owner = user;
    // Sets keep insertion order: the first ones are the oldest.
    for (const old of owner.streams) {
      if (owner.streams.size < this.#perUser) break;
      this.#supersede(old);
      this.#remove(owner, old);
    }
    owner.streams.add(stream);
    this.#count += 1;
    this.#startHeartbeat();
    // The client went away, or the stream was ended here: either way it is gone.
    reply.raw.once('close', () => this.#remove(owner, stream));
    // A failed write is a client gone away, which 'close' reports; an 'error' without a listener
    // would end the process.
    reply.raw.on('error', () => {});
    return new Promise((resolve, reject) => {
      owner.jobs.push({ kind: 'open', stream, after, reply, resolve, reject });
      this.#schedule(owner);
    });
  }

  /** Everything notification-events.ts hears comes here. */
  handle(event: NotificationEvent): void {
    if (event.kind === 'resync') {
      for (const user of this.#users.values()) {
        for (const stream of user.streams) user.jobs.push({ kind: 'catch-up', stream });
        this.#schedule(user);
      }
      return;
    }
    const user = this.#users.get(event.recipientId);
    if (!user) return;
    user.jobs.push({ kind: 'event', event });
    this.#schedule(user);
  }

  /** Ends the user's streams (a deleted account). */
  closeUser(userId: string): void {
    for (const stream of this.#users.get(userId)?.streams ?? []) this.#end(stream);
  }

  /**
   * Ends every stream and refuses new ones: the server's shutdown then waits for no stream. Each
   * client reconnects (to another instance, or to this one once it is back) with Last-Event-ID.
   */
  closeAll(): void {
    this.#closing = true;
    for (const user of this.#users.values()) for (const stream of user.streams) this.#end(stream);
    this.#stopHeartbeat();
  }

  #schedule(user: UserStreams): void {
    if (user.running || user.scheduled) return;
    user.scheduled = true;
    // The rest of this turn's NOTIFYs (node-postgres delivers a packet's worth at once) join the batch.
    setImmediate(() => {
      user.scheduled = false;
      void this.#drain(user);
    });
  }

  async #drain(user: UserStreams): Promise<void> {
    if (user.running) return;
    user.running = true;
    try {
      while (user.jobs.length > 0) {
        const first = user.jobs[0]!;
        if (first.kind === 'event') {
          let n = 1;
          while (n < user.jobs.length && user.jobs[n]!.kind === 'event') n += 1;
          const events = user.jobs.splice(0, n).map((job) => (job as { event: LiveEvent }).event);
          await this.#send(user, events);
        } else {
          user.jobs.shift();
          await this.#replay(user, first);
        }
      }
    } finally {
      user.running = false;
      this.#forgetIfIdle(user);
    }
  }

  /** An opening stream's first replay, or a live stream's catch-up after the listener was away. */
  async #replay(user: UserStreams, job: Extract<Job, { kind: 'open' | 'catch-up' }>): Promise<void> {
    const { stream } = job;
    if (job.kind === 'catch-up' && (stream.closed || !stream.live)) return;
    // Ended by the cap while it waited for its turn: no replay, just the reason.
    if (job.kind === 'open' && stream.superseded) return this.#answerSuperseded(job);
    const userId = user.viewer.userId;
    let view: repo.StreamView;
    try {
      if (this.#closing) throw new HttpError(503, STREAM_CLOSING_MESSAGE);
      // No Last-Event-ID: the stream starts from now. Anything committed after the view's snapshot
      // arrives as a live event queued behind this job.
      view = await repo.readStreamView(
        this.#db,
        userId,
        job.kind === 'open' ? job.after : stream.sentSeq,
        NOTIFICATION_REPLAY_LIMIT,
      );
    } catch (err) {
      if (job.kind === 'open') {
        this.#remove(user, stream);
        job.reject(err);
      } else {
        this.#log.warn({ err }, 'notification stream: catch-up failed; the client reconnects and replays');
        this.#end(stream);
      }
      return;
    }
    // Or while its replay was being read.
    if (job.kind === 'open' && stream.superseded) return this.#answerSuperseded(job);
    if (job.kind === 'open') {
      this.#begin(job.reply);
      job.resolve();
    }
    if (stream.closed) return;
    const { rows, last, unread } = view;
    let out = '';
    for (const row of rows) if (row.seq > stream.sentSeq) out += this.#notificationEvent(user, row);
    stream.sentSeq = Math.max(stream.sentSeq, last);
    if (job.kind === 'open' || unread !== stream.unread) out += sse.unread(unread, stream.sentSeq);
    stream.unread = unread;
    stream.live = true;
    this.#write(stream, out);
  }

  /** Live events that arrived together: read once, sent to each of the user's live streams. */
  async #send(user: UserStreams, events: LiveEvent[]): Promise<void> {
    const targets = [...user.streams].filter((stream) => stream.live && !stream.closed);
    if (targets.length === 0) return;
    const floor = Math.min(...targets.map((stream) => stream.sentSeq));
    const announced = Math.max(0, ...events.map((e) => (e.kind === 'changed' ? e.seq : 0)));
    const removed = [...new Set(events.flatMap((e) => (e.kind === 'removed' ? [e.id] : [])))];
    const read = events.some((e) => e.kind === 'read');
    // Changes every stream already had from its replay.
    if (announced <= floor && removed.length === 0 && !read) return;
    const userId = user.viewer.userId;
    let rows: repo.NotificationRow[] = [];
    let newest = 0;
    let unread: number;
    try {
      if (announced > floor) {
        // Everything after the floor, not just the announced seqs: announcements are sent after their
        // commits (db/announce-after-commit.ts), so one from another instance can arrive after a later
        // one, and a seq is only handed out once the previous one committed (the counter's row lock),
        // so whatever the view's last seq covers is there to read.
        const view = await repo.readStreamView(this.#db, userId, floor, NOTIFICATION_REPLAY_LIMIT);
        ({ rows, unread } = view);
        newest = view.last;
      } else {
        // A removal or a read mark: only the count moved. An entry it counts that no stream has yet
        // comes with its own announcement, behind this one.
        unread = await repo.countUnread(this.#db, userId);
      }
    } catch (err) {
      // What these events announced is not lost: each client reconnects with its Last-Event-ID.
      this.#log.warn({ err }, 'notification stream: reading an event failed; its streams reconnect');
      for (const stream of targets) this.#end(stream);
      return;
    }
    // An entry the user may not see (a blocked actor, a hidden post) is not among the rows: not sent.
    const encoded = rows.map((row) => ({ seq: row.seq, text: this.#notificationEvent(user, row) }));
    const removals = removed.map(sse.removed).join('');
    for (const stream of targets) {
      if (stream.closed) continue;
      let out = '';
      for (const entry of encoded) if (entry.seq > stream.sentSeq) out += entry.text;
      stream.sentSeq = Math.max(stream.sentSeq, newest);
      out += removals;
      if (unread !== stream.unread) {
        out += sse.unread(unread, stream.sentSeq);
        stream.unread = unread;
      }
      this.#write(stream, out);
    }
  }

  #notificationEvent(user: UserStreams, row: repo.NotificationRow): string {
    return sse.notification(JSON.stringify(toNotification(user.viewer, row, this.#publicBase)), row.seq);
  }

  /**
   * The answer's head. The reply is hijacked: Fastify's onSend hooks (compression, which would hold
   * events back to fill its blocks) never see it, so the headers they would add are written here.
   */
  #begin(reply: FastifyReply): void {
    reply.hijack();
    const res = reply.raw;
    if (res.destroyed) return;
    res.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': PRIVATE_ANSWER_CACHE_CONTROL,
      // nginx and others buffer proxied answers unless told not to.
      'x-accel-buffering': 'no',
      // The connection carries this stream only: it closes when the stream ends, so that a server
      // shutting down waits for no idle keep-alive connection.
      connection: 'close',
    });
    // Each event goes out as written (in-process test requests have a socket without this).
    if (typeof res.socket?.setNoDelay === 'function') res.socket.setNoDelay(true);
    res.write(`retry: ${RETRY_MIN_MS + Math.floor(Math.random() * RETRY_SPREAD_MS)}\n\n`);
  }

  #answerSuperseded(job: Extract<Job, { kind: 'open' }>): void {
    this.#begin(job.reply);
    job.resolve();
    const res = job.stream.res;
    if (!res.destroyed && !res.writableEnded) res.end(sse.superseded);
  }

  #write(stream: Stream, text: string): void {
    if (stream.closed || text === '' || stream.res.writableEnded || stream.res.destroyed) return;
    stream.res.write(text);
    if (stream.res.writableLength > MAX_UNSENT_BYTES) stream.res.destroy();
  }

  #end(stream: Stream): void {
    if (stream.closed) return;
    if (stream.res.headersSent) stream.res.end();
    else stream.res.destroy();
  }

  /**
   * Ends a stream to make room for a newer one of its user (the per-user cap), telling it so first:
   * the web client then waits until its tab is looked at again rather than reconnecting at once and
   * ending another of the user's streams in turn (six tabs would take turns ending each other).
   */
  #supersede(stream: Stream): void {
    if (stream.closed) return;
    if (!stream.res.headersSent) {
      stream.superseded = true;
      return;
    }
    this.#write(stream, sse.superseded);
    this.#end(stream);
  }

  #remove(user: UserStreams, stream: Stream): void {
    if (stream.closed) return;
    stream.closed = true;
    user.streams.delete(stream);
    this.#count -= 1;
    if (this.#count === 0) this.#stopHeartbeat();
    this.#forgetIfIdle(user);
  }

  #forgetIfIdle(user: UserStreams): void {
    if (user.streams.size > 0 || user.running || user.scheduled || user.jobs.length > 0) return;
    if (this.#users.get(user.viewer.userId) === user) this.#users.delete(user.viewer.userId);
  }

  #startHeartbeat(): void {
    if (this.#heartbeat) return;
    this.#heartbeat = setInterval(() => {
      for (const user of this.#users.values())
        for (const stream of user.streams) if (stream.live) this.#write(stream, sse.heartbeat);
    }, this.#heartbeatMs);
    this.#heartbeat.unref();
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    notificationStreams: NotificationStreams;
  }
}

/**
 * This instance's streams, fed by its notification listener; a deleted account's streams end at once,
 * and every stream ends when the app closes (before the server waits for open connections).
 */
export const notificationStreamsPlugin = fp(
  async (app: FastifyInstance, opts: { heartbeatMs?: number | undefined }) => {
    const streams = new NotificationStreams({
      db: app.database.db,
      publicBase: app.config.S3_PUBLIC_URL,
      log: app.log,
      perUser: app.config.NOTIFICATION_STREAMS_PER_USER,
      ...(opts.heartbeatMs ? { heartbeatMs: opts.heartbeatMs } : {}),
    });
    app.decorate('notificationStreams', streams);
    const unsubscribe = app.notificationEvents.subscribe((event) => streams.handle(event));
    app.liveUsers.onForget((userId) => streams.closeUser(userId));
    app.addHook('preClose', async () => {
      unsubscribe();
      streams.closeAll();
    });
  },
);
