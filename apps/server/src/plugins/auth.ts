import { hkdfSync } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import { and, eq, sql } from 'drizzle-orm';
import { ACCESS_TOKEN_TTL_SECONDS, DEMO_USER_ID, isUuid } from '@cats/contracts';
import type { Database } from '../db/client.ts';
import { preparedPerDatabase } from '../db/prepared.ts';
import { users } from '../db/schema/index.ts';
import { demoDisabled, forbidden, unauthorized } from '../lib/http-errors.ts';

export interface AuthContext {
  userId: string;
  isDemo: boolean;
}

export interface AccessTokens {
  sign(userId: string): Promise<string>;
  /** The user id in canonical (lower-case) form, or null for an invalid or expired token. */
  verify(token: string): Promise<string | null>;
}

/** Keys of the session's signatures other than the access token's, one per purpose. */
export interface SessionKeys {
  /** Derives a refresh token's successor from the token (auth.service.ts, refresh). */
  refreshSuccessor: Buffer;
  /** Signs the device cookie of a browser that logged in (device-cookie.ts). */
  device: Buffer;
  /** Signs the short-lived tickets that open a notification stream (notifications/stream-ticket.ts). */
  streamTicket: Buffer;
}

/**
 * Each key comes from the JWT secret through HKDF with its own label: one secret to keep, and no
 * signature made for one purpose is valid for another.
 */
export function deriveSessionKeys(secret: string): SessionKeys {
  const derive = (label: string) => Buffer.from(hkdfSync('sha256', secret, '', label, 32));
  return {
    refreshSuccessor: derive('cats refresh successor v1'),
    device: derive('cats device cookie v1'),
    streamTicket: derive('cats notification stream ticket v1'),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
    sessionKeys: SessionKeys;
    liveUsers: LiveUsers;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

const ISSUER = 'neighbourhood-cats';

/**
 * Tokens already verified, kept until they expire. Verifying an HS256 signature goes through WebCrypto
 * (an async job on the thread pool): about 7 % of the CPU of a feed request (docs/performance.md). A
 * client sends the same token for up to 15 minutes, so each one is checked once. Only tokens that
 * verified are kept, each no longer than its own exp, so the cache cannot accept anything jwtVerify
 * would refuse. Bounded: 10,000 entries of ~400 bytes.
 */
const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

export function createAccessTokens(secret: string, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): AccessTokens {
  const key = new TextEncoder().encode(secret);
  const verified = new LRUCache<string, string>({ max: VERIFIED_TOKEN_CACHE_SIZE });
  return {
    sign: (userId) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key),
    verify: async (token) => {
      const cached = verified.get(token);
      if (cached !== undefined) return cached;
      try {
        // A token without exp would be an account forever (issue 23): jose only checks exp when present.
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          algorithms: ['HS256'],
          requiredClaims: ['exp', 'sub'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
        // PostgreSQL reads a uuid in any case, so an upper-case sub finds the same row; every comparison
        // in the app (demo, ownership) is on the lower-case form the database returns.
        const userId = payload.sub.toLowerCase();
        // jwtVerify refused an expired token, so exp lies ahead; the entry goes when the token does.
        const msLeft = payload.exp * 1000 - Date.now();
        if (msLeft > 0) verified.set(token, userId, { ttl: msLeft });
        return userId;
      } catch {
        return null;
      }
    },
  };
}

export interface LiveUsers {
  /** Whether the account exists: from the database, or from a lookup less than ttlMs old. */
  exists(userId: string): Promise<boolean>;
  /**
   * Called when an account is deleted (by this process, or announced by the database): its next
   * request is looked up again.
   */
  forget(userId: string): void;
  /** Calls `listener` with each account forgotten from now on (open notification streams close). */
  onForget(listener: (userId: string) => void): void;
}

/**
 * How long an account seen to exist is taken to still exist. Every authenticated request checked the
 * users table until 2026-11-24: a second round trip to the database for each feed page, ~15 % of the
 * feed's throughput on 2 cores (docs/performance.md, "Feed: one round trip"). An account deleted
 * through this process is forgotten at once, so `npm start` (one process) refuses its tokens from the
 * next request. On PostgreSQL every instance also hears of each deletion as it commits (the plugin's
 * LISTEN below); only while that connection is lost do other instances honour a deleted account's
 * access token, for at most this long, and writes in its name then fail on the foreign keys.
 */
export const LIVE_USER_TTL_MS = 2_000;

export function createLiveUsers(
  lookup: (userId: string) => Promise<boolean>,
  ttlMs = LIVE_USER_TTL_MS,
): LiveUsers {
  const seen = new LRUCache<string, true>({ max: VERIFIED_TOKEN_CACHE_SIZE, ttl: ttlMs });
  // Bumped by forget(): a lookup that started before a deletion may answer true after it, and must not
  // put the deleted account back. Deletions are rare, so one counter for all users is enough.
  let generation = 0;
  const forgetListeners: ((userId: string) => void)[] = [];
  return {
    exists: async (userId) => {
      if (seen.get(userId)) return true;
      const started = generation;
      const found = await lookup(userId);
      if (found && started === generation) seen.set(userId, true);
      return found;
    },
    forget: (userId) => {
      generation += 1;
      seen.delete(userId);
      for (const listener of forgetListeners) listener(userId);
    },
    onForget: (listener) => {
      forgetListeners.push(listener);
    },
  };
}

/**
 * What drizzle/0004's trigger NOTIFYs, with the account's id, whenever a user row is deleted, and
 * drizzle/0024's whenever an account is suspended (issue 27): either way its tokens must stop working.
 */
export const ACCOUNT_DELETED_CHANNEL = 'cats_account_deleted';

export const authPlugin = fp(async (app: FastifyInstance, opts: { secret: string }) => {
  app.decorate('accessTokens', createAccessTokens(opts.secret));
  app.decorate('sessionKeys', deriveSessionKeys(opts.secret));
  const liveUsers = createLiveUsers((userId) => userExists(app, userId));
  app.decorate('liveUsers', liveUsers);
  app.decorateRequest('auth', null);
  // An account deleted through another instance (or by hand) is forgotten here too, as soon as its
  // transaction commits. While the listening connection is away, LIVE_USER_TTL_MS still bounds it.
  const deletions = await app.database.listen(
    ACCOUNT_DELETED_CHANNEL,
    (userId) => liveUsers.forget(userId),
    (err) => app.log.warn({ err }, 'account deletions: listening connection failed; retrying'),
  );
  app.addHook('onClose', () => deletions.close());
});

/**
 * onRequest hook for every protected route: no token 401, invalid or expired token 403 (the web client
 * refreshes once on 403, spec section 7). The user always comes from the token, never from the body.
 */
export async function requireAuth(this: FastifyInstance, request: FastifyRequest, _reply: FastifyReply) {
  const header = request.headers.authorization;
  if (!header) throw unauthorized(undefined, { 'www-authenticate': 'Bearer' });
  const match = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(header);
  const userId = match?.[1] ? await this.accessTokens.verify(match[1]) : null;
  // RFC 6750's error tells the client this 403 is about the token (refresh and retry), unlike a
  // permission 403 such as the demo user's refusals. A deleted account's still-live token is refused
  // too (a primary-key lookup, at most LIVE_USER_TTL_MS old), so nothing can be done in its name.
  if (!userId || !isUuid(userId) || !(await this.liveUsers.exists(userId))) {
    throw forbidden(undefined, { 'www-authenticate': 'Bearer error="invalid_token"' });
  }
  request.auth = { userId, isDemo: userId === DEMO_USER_ID };
}

/**
 * Runs for an authenticated request unless the same account was seen in the last LIVE_USER_TTL_MS. A
 * suspended account (issue 27) counts as gone: its access tokens stop working with its next lookup,
 * which each suspension brings about at once by being announced like a deletion (migration 0024). One
 * whose suspension has ended counts again, before the sweep clears it.
 */
const userExistsQuery = preparedPerDatabase((db: Database) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, sql.placeholder('userId')),
        sql`(${users.suspendedAt} is null or ${users.suspendedUntil} <= now())`,
      ),
    )
    .limit(1)
    .prepare('user_exists'),
);

async function userExists(app: FastifyInstance, userId: string): Promise<boolean> {
  return (await userExistsQuery(app.database.db).execute({ userId })).length > 0;
}

/** The authenticated caller; only valid behind requireAuth. */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** Spec section 6: the shared demo account may look but not write. */
export function assertNotDemo(request: FastifyRequest): AuthContext {
  const auth = caller(request);
  if (auth.isDemo) throw demoDisabled();
  return auth;
}
