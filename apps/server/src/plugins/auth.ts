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
  /**
   * When the password was last typed in the session the token belongs to (its auth_time claim), in
   * seconds since the epoch; null when unknown. Deleting the account asks for it to be recent (issue 46).
   */
  signedInAt?: number | null;
  /**
   * users.session_generation the token was signed with (set by requireAuth): what a stream ticket
   * taken with it carries, so a later password change or reset ends the ticket too (issue 46).
   */
  sessionGeneration?: number;
}

/** What an access token says beside its user. */
export interface SessionClaims {
  /** users.session_generation when the token was signed: a password change or reset bumps it. */
  generation: number;
  /** When the password was last typed in this session, if known (the token's auth_time). */
  signedInAt: Date | null;
}

export interface VerifiedToken {
  /** The user id in canonical (lower-case) form. */
  userId: string;
  generation: number;
  /** Seconds since the epoch, or null. */
  signedInAt: number | null;
}

export interface AccessTokens {
  sign(userId: string, claims?: Partial<SessionClaims>): Promise<string>;
  /**
   * The token's user and session claims, or null for an invalid or expired token, or one whose
   * lifetime (exp - iat) is longer than this server issues (issue 46).
   */
  verify(token: string): Promise<VerifiedToken | null>;
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

/** How far ahead of this server's clock another instance's may be when it signs a token. */
const CLOCK_TOLERANCE_SECONDS = 60;

export function createAccessTokens(secret: string, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): AccessTokens {
  const key = new TextEncoder().encode(secret);
  const verified = new LRUCache<string, VerifiedToken>({ max: VERIFIED_TOKEN_CACHE_SIZE });
  return {
    sign: (userId, claims = {}) =>
      new SignJWT({
        gen: claims.generation ?? 0,
        ...(claims.signedInAt ? { auth_time: Math.floor(claims.signedInAt.getTime() / 1000) } : {}),
      })
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
          requiredClaims: ['exp', 'sub', 'iat'],
        });
        const { sub, exp, iat, gen, auth_time: authTime } = payload;
        if (typeof sub !== 'string' || typeof exp !== 'number' || typeof iat !== 'number') return null;
        // Issue 46: whoever holds the secret (or a bug) must not mint a token that outlives the ones
        // this server signs, nor one dated ahead to stretch its life.
        if (exp - iat > ttlSeconds || iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) return null;
        // Tokens signed before generations existed carry none: they belong to generation 0.
        if (gen !== undefined && (typeof gen !== 'number' || !Number.isInteger(gen))) return null;
        if (authTime !== undefined && typeof authTime !== 'number') return null;
        // PostgreSQL reads a uuid in any case, so an upper-case sub finds the same row; every comparison
        // in the app (demo, ownership) is on the lower-case form the database returns.
        const result: VerifiedToken = {
          userId: sub.toLowerCase(),
          generation: gen ?? 0,
          signedInAt: authTime ?? null,
        };
        // jwtVerify refused an expired token, so exp lies ahead; the entry goes when the token does.
        const msLeft = exp * 1000 - Date.now();
        if (msLeft > 0) verified.set(token, result, { ttl: msLeft });
        return result;
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
   * The account's session generation (users.session_generation), null when it is gone or
   * suspended: from the database, or from a lookup less than ttlMs old.
   */
  generation(userId: string): Promise<number | null>;
  /**
   * Called when an account is deleted, suspended or has its password changed (by this process, or
   * announced by the database): its next request is looked up again.
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
  lookup: (userId: string) => Promise<number | null>,
  ttlMs = LIVE_USER_TTL_MS,
): LiveUsers {
  const seen = new LRUCache<string, number>({ max: VERIFIED_TOKEN_CACHE_SIZE, ttl: ttlMs });
  // Bumped by forget(): a lookup that started before a deletion (or a password change) may answer
  // after it, and must not put the old state back. Deletions are rare, so one counter for all users
  // is enough.
  let generation = 0;
  const forgetListeners: ((userId: string) => void)[] = [];
  const generationOf = async (userId: string): Promise<number | null> => {
    const cached = seen.get(userId);
    if (cached !== undefined) return cached;
    const started = generation;
    const found = await lookup(userId);
    if (found !== null && started === generation) seen.set(userId, found);
    return found;
  };
  return {
    exists: async (userId) => (await generationOf(userId)) !== null,
    generation: generationOf,
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
  const liveUsers = createLiveUsers((userId) => sessionGenerationOf(app, userId));
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
  const token = match?.[1] ? await this.accessTokens.verify(match[1]) : null;
  // RFC 6750's error tells the client this 403 is about the token (refresh and retry), unlike a
  // permission 403 such as the demo user's refusals. A deleted account's still-live token is refused
  // too (a primary-key lookup, at most LIVE_USER_TTL_MS old), so nothing can be done in its name, and
  // so is one signed before the account's last password change or reset (issue 46): the same lookup
  // reads the account's session generation.
  const current = token && isUuid(token.userId) ? await this.liveUsers.generation(token.userId) : null;
  if (!token || current === null || token.generation !== current) {
    throw forbidden(undefined, { 'www-authenticate': 'Bearer error="invalid_token"' });
  }
  const { userId, signedInAt } = token;
  request.auth = { userId, isDemo: userId === DEMO_USER_ID, signedInAt, sessionGeneration: current };
}

/**
 * Runs for an authenticated request unless the same account was seen in the last LIVE_USER_TTL_MS. A
 * suspended account (issue 27) counts as gone: its access tokens stop working with its next lookup,
 * which each suspension brings about at once by being announced like a deletion (migration 0024). One
 * whose suspension has ended counts again, before the sweep clears it. Answers the account's session
 * generation, which a password change or reset bumps and announces the same way (migration 0039).
 */
const sessionGenerationQuery = preparedPerDatabase((db: Database) =>
  db
    .select({ generation: users.sessionGeneration })
    .from(users)
    .where(
      and(
        eq(users.id, sql.placeholder('userId')),
        sql`(${users.suspendedAt} is null or ${users.suspendedUntil} <= now())`,
      ),
    )
    .limit(1)
    .prepare('user_session_generation'),
);

async function sessionGenerationOf(app: FastifyInstance, userId: string): Promise<number | null> {
  const [row] = await sessionGenerationQuery(app.database.db).execute({ userId });
  return row?.generation ?? null;
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
