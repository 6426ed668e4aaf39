import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SignJWT, jwtVerify } from 'jose';
import { eq } from 'drizzle-orm';
import { ACCESS_TOKEN_TTL_SECONDS, DEMO_USER_ID, isUuid } from '@cats/contracts';
import { users } from '../db/schema/index.ts';
import { demoDisabled, forbidden, unauthorized } from '../lib/http-errors.ts';

export interface AuthContext {
  userId: string;
  isDemo: boolean;
}

export interface AccessTokens {
  sign(userId: string): Promise<string>;
  /** The user id, or null for an invalid or expired token. */
  verify(token: string): Promise<string | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokens;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

const ISSUER = 'neighbourhood-cats';

export function createAccessTokens(secret: string, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): AccessTokens {
  const key = new TextEncoder().encode(secret);
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
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
        return typeof payload.sub === 'string' ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}

export const authPlugin = fp(async (app: FastifyInstance, opts: { secret: string }) => {
  app.decorate('accessTokens', createAccessTokens(opts.secret));
  app.decorateRequest('auth', null);
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
  // too (one primary-key lookup), so nothing can be done in its name after deletion.
  if (!userId || !isUuid(userId) || !(await userExists(this, userId))) {
    throw forbidden(undefined, { 'www-authenticate': 'Bearer error="invalid_token"' });
  }
  request.auth = { userId, isDemo: userId === DEMO_USER_ID };
}

async function userExists(app: FastifyInstance, userId: string): Promise<boolean> {
  const rows = await app.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return rows.length > 0;
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
