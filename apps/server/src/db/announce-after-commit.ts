import pg from 'pg';

/**
 * Notification announcements made after their transaction commits, on PostgreSQL
 * (docs/decisions/010-notify-after-commit.md).
 *
 * A NOTIFY inside a transaction makes PostgreSQL take one lock for the whole database at commit and
 * hold it until the commit is flushed to disk, so notifying transactions (every like, comment and group
 * event) commit one at a time. The app's connections therefore set `cats.notify_after_commit`, and
 * announce_notification() (migration 0015) then sends each announcement to the connection as a NOTICE
 * with the code below instead. This client collects them per transaction, drops them when it rolls
 * back, and hands them over once it has committed; `Announcer` NOTIFYs them in a transaction of its
 * own that changes no data, so it neither waits for a disk flush nor holds up anyone's commit.
 *
 * An announcement only tells listeners to read the user's rows: if the process dies between the commit
 * and the NOTIFY, the entry is still there, and an open stream gets it with its user's next event, a
 * replay, or the bell's next count.
 */
export const ANNOUNCE_CHANNEL = 'notifications';
/** The SQLSTATE announce_notification() raises its NOTICE with (class 01, warnings; ours). */
export const ANNOUNCE_NOTICE_CODE = '01N01';
/** The startup option that turns announcements into NOTICEs on the app's connections. */
export const ANNOUNCE_AFTER_COMMIT_OPTION = '-c cats.notify_after_commit=on';

/** The most announcements one transaction keeps one by one (AnnouncementLedger.notice). */
export const MAX_PENDING = 10_000;
/** Most payloads per NOTIFY statement. */
const BATCH_MAX = 1_000;
const CHANGED_PAYLOAD = /^(\S+) (\d+)$/;

type StatementKind = 'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollback-to' | 'other';

/** What a statement does to the transaction, from its text (drizzle sends these as plain statements). */
export function statementKind(text: string): StatementKind {
  const head = /^\s*([a-z]+)(?:\s+([a-z]+))?/i.exec(text);
  const first = head?.[1]?.toLowerCase();
  const second = head?.[2]?.toLowerCase();
  switch (first) {
    case 'begin':
    case 'start':
      return 'begin';
    case 'commit':
    case 'end':
      return 'commit';
    case 'rollback':
    case 'abort':
      return second === 'to' ? 'rollback-to' : 'rollback';
    case 'savepoint':
      return 'savepoint';
    case 'release':
      return 'release';
    default:
      return 'other';
  }
}

/**
 * Follows one connection's transactions and the announcements made in them. `notice` is each
 * announcement as it arrives; `settled` each statement once PostgreSQL has answered it (in the order
 * sent: a connection runs one statement at a time). Returns the announcements to send now.
 */
export class AnnouncementLedger {
  #pending: string[] = [];
  /** Past MAX_PENDING, the newest seq of each recipient only ('recipient seq' payloads). */
  #overflow = new Map<string, number>();
  #savepoints: number[] = [];
  #inTransaction = false;

  notice(payload: string): void {
    if (this.#pending.length < MAX_PENDING) {
      this.#pending.push(payload);
      return;
    }
    // A bulk statement (a data load, a large account's deletion) can announce hundreds of thousands
    // of entries. Streams read everything after what they sent, so the newest seq of each recipient
    // says all they need; removals and pushes past this point are not announced (a reload shows them).
    const match = CHANGED_PAYLOAD.exec(payload);
    if (match) {
      const seq = Number(match[2]);
      if (seq > (this.#overflow.get(match[1]!) ?? 0)) this.#overflow.set(match[1]!, seq);
    }
  }

  /** `tag` is the command tag of a successful answer (a COMMIT of a failed transaction says ROLLBACK). */
  settled(kind: StatementKind, ok: boolean, tag?: string | null): string[] {
    switch (kind) {
      case 'begin':
        if (ok) this.#inTransaction = true;
        return [];
      case 'commit':
        return this.#end(ok && tag?.toUpperCase() !== 'ROLLBACK');
      case 'rollback':
        return this.#end(false);
      case 'savepoint':
        if (ok) this.#savepoints.push(this.#pending.length);
        return [];
      case 'release':
        if (ok) this.#savepoints.pop();
        return [];
      case 'rollback-to':
        // The savepoint stays after a rollback to it: what was announced since is undone.
        if (ok) this.#pending.length = this.#savepoints.at(-1) ?? this.#pending.length;
        return [];
      default:
        // A statement on its own is its own transaction; inside one, it waits for the commit.
        return this.#inTransaction ? [] : this.#end(ok);
    }
  }

  #end(committed: boolean): string[] {
    const out = committed ? this.#pending : [];
    if (committed) for (const [recipient, seq] of this.#overflow) out.push(`${recipient} ${seq}`);
    this.#overflow = new Map();
    this.#pending = [];
    this.#savepoints = [];
    this.#inTransaction = false;
    return out;
  }
}

/**
 * Sends announcements as NOTIFYs, from any number of connections' commits: what arrives while one
 * batch is on its way goes in the next, so under load each NOTIFY transaction carries many. A batch
 * the database refuses is tried again (the entries are safe in their rows either way), until the
 * backlog passes `maxBacklog`, when the oldest are dropped with a warning.
 */
export class Announcer {
  readonly #send: (payloads: string[]) => Promise<void>;
  readonly #onError: (error: Error, dropped: number) => void;
  readonly #retryMs: number;
  readonly #maxBacklog: number;
  #queue: string[] = [];
  #sending: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(opts: {
    send: (payloads: string[]) => Promise<void>;
    onError?: (error: Error, dropped: number) => void;
    retryMs?: number;
    maxBacklog?: number;
  }) {
    this.#send = opts.send;
    this.#onError = opts.onError ?? (() => {});
    this.#retryMs = opts.retryMs ?? 1_000;
    this.#maxBacklog = opts.maxBacklog ?? 10_000;
  }

  announce(payloads: string[]): void {
    if (this.#closed || payloads.length === 0) return;
    // Not push(...payloads): a bulk transaction's list is longer than the stack allows arguments.
    this.#queue = this.#queue.length === 0 ? payloads : this.#queue.concat(payloads);
    if (!this.#sending && !this.#timer) this.#sending = this.#flush();
  }

  async #flush(): Promise<void> {
    // Let the commits that settle in this turn of the event loop join the batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.#queue.length > 0 && !this.#closed) {
      const batch = this.#queue.slice(0, BATCH_MAX);
      this.#queue = this.#queue.slice(BATCH_MAX);
      try {
        await this.#send(batch);
      } catch (err) {
        this.#queue = batch.concat(this.#queue);
        const dropped = Math.max(0, this.#queue.length - this.#maxBacklog);
        if (dropped > 0) this.#queue.splice(0, dropped);
        this.#onError(err as Error, dropped);
        this.#timer = setTimeout(() => {
          this.#timer = null;
          if (!this.#sending) this.#sending = this.#flush();
        }, this.#retryMs);
        this.#timer.unref();
        break;
      }
    }
    this.#sending = null;
  }

  /** Sends what is queued (one try) and stops taking more: before the pool closes. */
  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#sending;
    this.#closed = true;
    const rest = this.#queue;
    this.#queue = [];
    for (let i = 0; i < rest.length; i += BATCH_MAX) {
      const batch = rest.slice(i, i + BATCH_MAX);
      await this.#send(batch).catch((err) => this.#onError(err as Error, batch.length));
    }
  }
}

/** The NOTIFYs of a batch: one statement, a transaction that writes no data and so waits for no flush. */
export const NOTIFY_BATCH_SQL = `select pg_notify('${ANNOUNCE_CHANNEL}', p), set_config('synchronous_commit', 'off', true)
  from unnest($1::text[]) p`;

/**
 * A node-postgres client class for the app's pool: it collects its connection's announcements and
 * gives those of each committed transaction to `announce`.
 */
export function announcingClient(announce: (payloads: string[]) => void): typeof pg.Client {
  return class AnnouncingClient extends pg.Client {
    readonly #ledger = new AnnouncementLedger();

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('notice', (notice) => {
        if (notice.code === ANNOUNCE_NOTICE_CODE && notice.message) this.#ledger.notice(notice.message);
      });
    }

    // node-postgres' overloads, passed through. Statements with a text are followed, whether answered
    // by promise (drizzle's transactions) or by callback (the pool's own query()).
    override query(...args: unknown[]): never {
      const first = args[0] as string | { text?: unknown } | undefined;
      const text = typeof first === 'string' ? first : first?.text;
      if (typeof text !== 'string') return (super.query as (...a: unknown[]) => never)(...args);
      const kind = statementKind(text);
      const settle = (ok: boolean, answer?: pg.QueryResult) =>
        announce(this.#ledger.settled(kind, ok, answer?.command));
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (err: Error | null, answer?: pg.QueryResult) => {
          settle(!err, answer);
          (callback as (e: Error | null, a?: pg.QueryResult) => void)(err, answer);
        };
        return (super.query as (...a: unknown[]) => never)(...args);
      }
      const result = (super.query as (...a: unknown[]) => unknown)(...args);
      if (result instanceof Promise) {
        result.then(
          (answer: pg.QueryResult | undefined) => settle(true, answer),
          () => settle(false),
        );
      }
      return result as never;
    }
  };
}
