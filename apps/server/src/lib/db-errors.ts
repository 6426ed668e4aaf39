/**
 * Classifies errors thrown by the database layer. Drizzle wraps the driver's error (`cause`), and a
 * failed connection to a host with several addresses is an AggregateError (`errors`), so the whole
 * chain is searched.
 */

/** Socket-level codes of a database that is down, restarting or unreachable. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a server going away or not yet back (class 08, 57P01-57P03) or out of connections. */
const UNAVAILABLE_SQLSTATES = /^(08\d{3}|57P0[1-3]|53300)$/;

/** node-postgres reports a lost or never-made connection with these messages and no code. */
const CONNECTION_MESSAGES = [
  'connection terminated',
  'timeout exceeded when trying to connect',
  'client has encountered a connection error',
  'cannot use a pool after calling end',
  'connection is closed',
];

/** SQLSTATEs of text PostgreSQL cannot store (a NUL character, an unpaired surrogate). */
const UNSTORABLE_TEXT_SQLSTATES = new Set(['22021', '22P05']);

function* chain(err: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (!err || typeof err !== 'object' || depth > 8) return;
  const e = err as Record<string, unknown>;
  yield e;
  if (e.cause) yield* chain(e.cause, depth + 1);
  if (Array.isArray(e.errors)) for (const inner of e.errors) yield* chain(inner, depth + 1);
}

/** The database is unreachable or restarting: the request may succeed if retried shortly (503). */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of chain(err)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code)) return true;
    const message = typeof e.message === 'string' ? e.message.toLowerCase() : '';
    if (CONNECTION_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}

/** The request carried text the database cannot hold: the client's fault (400), not the server's. */
export function isUnstorableText(err: unknown): boolean {
  for (const e of chain(err)) {
    if (typeof e.code === 'string' && UNSTORABLE_TEXT_SQLSTATES.has(e.code)) return true;
  }
  return false;
}

/** A write ran into this named constraint (a foreign key, a check, a unique index). */
export function violatesConstraint(err: unknown, constraint: string): boolean {
  for (const e of chain(err)) if (e.constraint === constraint) return true;
  return false;
}

/** A group share whose author is not (or no longer) a member of the group (drizzle/0005). */
export const SHARE_NEEDS_MEMBERSHIP = 'post_groups_membership_fk';

/** A post linked to a cat that no longer exists (its last caretaker's account went, issue 26). */
export const POST_CAT_FK = 'posts_cat_id_cats_id_fk';
