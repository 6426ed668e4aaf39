import { REFRESH_REUSE_GRACE_MS } from './auth.service.ts';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTH_MESSAGES,
  DEMO_DISABLED_MESSAGE,
  DEMO_EMAIL,
  DEMO_PASSWORD,
  DEMO_USER_ID,
  EMAIL_HINT,
  PASSWORD_HINT,
  REFRESH_TOKEN_TTL_SECONDS,
  USERNAME_HINT,
} from '@cats/contracts';
import { buildTestApp, uniqueSuffix, type TestApp } from '../../../test/build-app.ts';
import { createUser } from '../../../test/factories.ts';
import { loginFailures, refreshTokens, users } from '../../db/schema/index.ts';
import { createAccessTokens, requireAuth } from '../../plugins/auth.ts';
import { insertUser } from './auth.repository.ts';
import { hashRefreshToken, uniqueConflict } from './auth.service.ts';
import { LOGIN_THROTTLE, lockRemainingMs } from './login-throttle.ts';

const PASSWORD = 'Whiskers123';
const newUser = () => {
  const id = uniqueSuffix();
  return { username: `cat_${id}`, email: `cat_${id}@example.com`, password: PASSWORD };
};

/** A protected route of the account module that changes nothing visible to others. */
const PROTECTED = '/api/profile/settings/location-privacy';

function refreshCookie(res: LightMyRequestResponse, name = 'jwt') {
  return res.cookies.find((c) => c.name === name);
}

describe('accounts and sessions API', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Many logins from one address: the per-IP limits are tested on their own app below.
    t = await buildTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '100000', RATE_LIMIT_SIGNUP_PER_MINUTE: '100000' });
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const signup = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/signup', payload: payload as object });
  const login = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: payload as object });
  const refresh = (token?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/refresh',
      ...(token !== undefined ? { cookies: { jwt: token } } : {}),
    });
  const logout = (token?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/logout',
      ...(token !== undefined ? { cookies: { jwt: token } } : {}),
    });
  const callProtected = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'PUT', url: PROTECTED, headers, payload: { exactPublicLocation: false } });
  /** A request as requireAuth sees it, for calling the hook itself. */
  const bearerRequest = (token: string) =>
    ({ headers: { authorization: `Bearer ${token}` }, auth: null }) as unknown as FastifyRequest;

  async function loggedIn(email: string, password = PASSWORD) {
    const res = await login({ email, password });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ accessToken: string; userId: string }>();
    return { ...body, cookie: refreshCookie(res)!.value };
  }

  describe('POST /api/signup', () => {
    it('creates the account (201) with an argon2id hash, and the new user can log in', async () => {
      const user = newUser();
      const res = await signup(user);
      expect(res.statusCode).toBe(201);
      const body = res.json<{ message: string; userId: string }>();
      expect(body.message).toBe('Account created');
      const [row] = await t.db.select().from(users).where(eq(users.id, body.userId));
      expect(row).toMatchObject({ username: user.username, email: user.email });
      expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(row!.passwordHash).not.toContain(PASSWORD);
      const session = await loggedIn(user.email);
      expect(session.userId).toBe(body.userId);
    });

    it.each([
      ['username too short', { username: 'ab' }, USERNAME_HINT],
      ['username too long', { username: 'a'.repeat(24) }, USERNAME_HINT],
      ['username with a space', { username: 'bad name' }, USERNAME_HINT],
      ['username missing', { username: undefined }, USERNAME_HINT],
      ['email without domain', { email: 'cat@example' }, EMAIL_HINT],
      ['email missing', { email: undefined }, EMAIL_HINT],
      ['password without uppercase', { password: 'whiskers123' }, PASSWORD_HINT],
      ['password without digit', { password: 'Whiskersss' }, PASSWORD_HINT],
      ['password too short', { password: 'Whisk12' }, PASSWORD_HINT],
      ['password too long', { password: `Whiskers1${'x'.repeat(16)}` }, PASSWORD_HINT],
      ['password missing', { password: undefined }, PASSWORD_HINT],
    ])('refuses %s with 400 and the field hint', async (_name, override, message) => {
      const user = { ...newUser(), ...override };
      const res = await signup(user);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
      const count = await t.db.$count(users, sql`lower(${users.email}) = lower(${user.email ?? ''})`);
      expect(count).toBe(0);
    });

    it('accepts the boundaries of the actual pattern: 3 and 23 characters, password 8 and 24', async () => {
      const id = uniqueSuffix();
      const short = await signup({
        username: id.slice(0, 3),
        email: `s_${id}@example.com`,
        password: 'Abcdefg1',
      });
      expect(short.statusCode).toBe(201);
      const long = await signup({
        username: `${id}${'x'.repeat(15)}`,
        email: `l_${id}@example.com`,
        password: `Abcdefg1${'y'.repeat(16)}`,
      });
      expect(long.statusCode).toBe(201);
    });

    it('answers 409 for a taken email or display name, whatever the case', async () => {
      const user = newUser();
      expect((await signup(user)).statusCode).toBe(201);
      const sameEmail = await signup({ ...newUser(), email: user.email.toUpperCase() });
      expect(sameEmail.statusCode).toBe(409);
      expect(sameEmail.json()).toEqual({ message: 'That email is already registered' });
      const sameName = await signup({ ...newUser(), username: user.username.toUpperCase() });
      expect(sameName.statusCode).toBe(409);
      expect(sameName.json()).toEqual({ message: 'That display name is already taken' });
    });

    it('maps the database unique indexes to the readable 409 messages (the race path)', async () => {
      const existing = await createUser(t.db);
      const attempt = (values: { username: string; email: string }) =>
        insertUser(t.db, { ...values, passwordHash: 'x' }).then(
          () => null,
          (err: unknown) => uniqueConflict(err),
        );
      const byEmail = await attempt({ username: `u_${uniqueSuffix()}`, email: existing.email.toUpperCase() });
      expect(byEmail).toMatchObject({ statusCode: 409, message: AUTH_MESSAGES.emailTaken });
      const byName = await attempt({ username: existing.username.toUpperCase(), email: newUser().email });
      expect(byName).toMatchObject({ statusCode: 409, message: AUTH_MESSAGES.usernameTaken });
    });

    it('lets exactly one of two simultaneous sign-ups with the same email through', async () => {
      const email = newUser().email;
      const results = await Promise.all([signup({ ...newUser(), email }), signup({ ...newUser(), email })]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(results.find((r) => r.statusCode === 409)!.json()).toEqual({
        message: AUTH_MESSAGES.emailTaken,
      });
      expect(await t.db.$count(users, eq(users.email, email))).toBe(1);
    });
  });

  describe('POST /api/login', () => {
    it.each([
      ['no email', { password: PASSWORD }],
      ['no password', { email: 'someone@example.com' }],
      ['empty fields', { email: '', password: '' }],
      ['an empty object', {}],
    ])('answers 400 Missing Email or Password for %s', async (_name, payload) => {
      const res = await login(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Missing Email or Password' });
      expect(refreshCookie(res)).toBeUndefined();
    });

    it('answers the same 401 for a wrong password and an unknown email', async () => {
      const user = await createUser(t.db);
      const wrong = await login({ email: user.email, password: 'Wrong12345' });
      const unknown = await login({ email: `nobody_${uniqueSuffix()}@example.com`, password: PASSWORD });
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: 'Unauthorized' });
        expect(refreshCookie(res)).toBeUndefined();
      }
    });

    it('answers 200 {accessToken, userId} and sets the refresh cookie httpOnly, SameSite=Strict, 30 days', async () => {
      const user = await createUser(t.db);
      const res = await login({ email: user.email, password: user.password });
      expect(res.statusCode).toBe(200);
      const body = res.json<{ accessToken: string; userId: string }>();
      expect(Object.keys(body).sort()).toEqual(['accessToken', 'userId']);
      expect(body.userId).toBe(user.id);
      const cookie = refreshCookie(res)!;
      expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      expect(cookie.secure).toBeFalsy();
      expect(cookie.maxAge).toBeGreaterThan(REFRESH_TOKEN_TTL_SECONDS - 5);
      expect(cookie.maxAge).toBeLessThanOrEqual(REFRESH_TOKEN_TTL_SECONDS);
      // Only the hash is stored.
      const [row] = await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
      expect(row!.tokenHash).toBe(hashRefreshToken(cookie.value));
      expect(row!.tokenHash).not.toBe(cookie.value);
      // The access token works and lives 15 minutes.
      expect((await callProtected({ authorization: `Bearer ${body.accessToken}` })).statusCode).toBe(200);
      const payload = JSON.parse(Buffer.from(body.accessToken.split('.')[1]!, 'base64url').toString()) as {
        sub: string;
        iat: number;
        exp: number;
      };
      expect(payload.sub).toBe(user.id);
      expect(payload.exp - payload.iat).toBe(ACCESS_TOKEN_TTL_SECONDS);
    });

    it('matches the email case-insensitively and ignores surrounding spaces', async () => {
      const user = await createUser(t.db);
      const res = await login({ email: `  ${user.email.toUpperCase()} `, password: user.password });
      expect(res.statusCode).toBe(200);
      expect(res.json().userId).toBe(user.id);
    });

    it('logs the demo user in with the public credentials', async () => {
      const session = await loggedIn(DEMO_EMAIL, DEMO_PASSWORD);
      expect(session.userId).toBe(DEMO_USER_ID);
    });
  });

  describe('GET /api/refresh', () => {
    it('answers 401 without a cookie', async () => {
      const res = await refresh();
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthorized' });
    });

    it('answers 403 for a garbage cookie and clears it', async () => {
      const res = await refresh('not-a-token');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'Forbidden' });
      const cleared = refreshCookie(res)!;
      expect(cleared.value).toBe('');
      expect(cleared.maxAge === 0 || (cleared.expires && cleared.expires.getTime() <= Date.now())).toBe(true);
    });

    it('rotates: a new access token and cookie, the used token stops working, expiry stays absolute', async () => {
      const user = await createUser(t.db);
      const first = await loggedIn(user.email);
      const [original] = await t.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashRefreshToken(first.cookie)));

      const res = await refresh(first.cookie);
      expect(res.statusCode).toBe(200);
      const body = res.json<{ accessToken: string; userId: string }>();
      expect(body.userId).toBe(user.id);
      expect((await callProtected({ authorization: `Bearer ${body.accessToken}` })).statusCode).toBe(200);
      const next = refreshCookie(res)!;
      expect(next.value).not.toBe(first.cookie);
      expect(next).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      expect(next.maxAge).toBeLessThanOrEqual(REFRESH_TOKEN_TTL_SECONDS);

      const [rotated] = await t.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashRefreshToken(next.value)));
      expect(rotated!.familyId).toBe(original!.familyId);
      expect(rotated!.expiresAt.getTime()).toBe(original!.expiresAt.getTime());

      // The next token works in turn.
      expect((await refresh(next.value)).statusCode).toBe(200);
    });

    it('revokes the whole family when a rotated token is presented again', async () => {
      const user = await createUser(t.db);
      const session = await loggedIn(user.email);
      const other = await loggedIn(user.email); // another device: a different family
      const second = refreshCookie(await refresh(session.cookie))!.value;
      const third = refreshCookie(await refresh(second))!.value;
      // Past the grace window for concurrent refreshes.
      await t.db
        .update(refreshTokens)
        .set({ rotatedAt: new Date(Date.now() - REFRESH_REUSE_GRACE_MS - 1000) })
        .where(eq(refreshTokens.tokenHash, hashRefreshToken(session.cookie)));

      const reuse = await refresh(session.cookie);
      expect(reuse.statusCode).toBe(403);
      // The thief's or the owner's latest token: both are dead now.
      expect((await refresh(third)).statusCode).toBe(403);
      const [family] = await t.db
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashRefreshToken(session.cookie)));
      const live = await t.db.$count(
        refreshTokens,
        and(eq(refreshTokens.familyId, family!.familyId), sql`${refreshTokens.revokedAt} is null`),
      );
      expect(live).toBe(0);
      // The other device's session is untouched.
      expect((await refresh(other.cookie)).statusCode).toBe(200);
    });

    it('treats a second refresh with the same cookie a moment later as two tabs, not a theft', async () => {
      const user = await createUser(t.db);
      const session = await loggedIn(user.email);
      const [a, b] = await Promise.all([refresh(session.cookie), refresh(session.cookie)]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      const nextA = refreshCookie(a)!.value;
      const nextB = refreshCookie(b)!.value;
      // One session, not two siblings.
      expect(nextA).toBe(nextB);
      // Both tabs keep working.
      expect((await refresh(nextA)).statusCode).toBe(200);
      expect((await refresh(nextB)).statusCode).toBe(200);
    });

    it('returns the same successor for a rotated token presented again within the grace window', async () => {
      const user = await createUser(t.db);
      const session = await loggedIn(user.email);
      const first = await refresh(session.cookie);
      expect(first.statusCode).toBe(200);
      const successor = refreshCookie(first)!.value;
      const concurrent = await Promise.all(Array.from({ length: 5 }, () => refresh(session.cookie)));
      const sequential: LightMyRequestResponse[] = [];
      for (let i = 0; i < 5; i += 1) sequential.push(await refresh(session.cookie));
      for (const res of [...concurrent, ...sequential]) {
        expect(res.statusCode).toBe(200);
        expect(res.json<{ userId: string }>().userId).toBe(user.id);
        expect(refreshCookie(res)!.value).toBe(successor);
      }
      const [{ familyId } = { familyId: '' }] = await t.db
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashRefreshToken(session.cookie)));
      const liveInFamily = () =>
        t.db.$count(
          refreshTokens,
          and(
            eq(refreshTokens.familyId, familyId),
            sql`${refreshTokens.rotatedAt} is null and ${refreshTokens.revokedAt} is null`,
          ),
        );
      expect(await liveInFamily()).toBe(1);

      // Past the window the same presentation is reuse: the family, successor included, is revoked.
      await t.db
        .update(refreshTokens)
        .set({ rotatedAt: new Date(Date.now() - REFRESH_REUSE_GRACE_MS - 1000) })
        .where(eq(refreshTokens.tokenHash, hashRefreshToken(session.cookie)));
      expect((await refresh(session.cookie)).statusCode).toBe(403);
      expect((await refresh(successor)).statusCode).toBe(403);
      expect(await liveInFamily()).toBe(0);
    });

    it('answers 403 once the family has passed its absolute expiry', async () => {
      const user = await createUser(t.db);
      const session = await loggedIn(user.email);
      await t.db
        .update(refreshTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(refreshTokens.userId, user.id));
      expect((await refresh(session.cookie)).statusCode).toBe(403);
    });
  });

  describe('GET /api/logout', () => {
    it('revokes the refresh token, clears the cookie and answers 204, again 204 when logged out', async () => {
      const user = await createUser(t.db);
      const session = await loggedIn(user.email);
      const res = await logout(session.cookie);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const cleared = refreshCookie(res)!;
      expect(cleared.value).toBe('');
      expect(cleared).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      expect((await refresh(session.cookie)).statusCode).toBe(403);

      expect((await logout(session.cookie)).statusCode).toBe(204);
      expect((await logout()).statusCode).toBe(204);
      expect((await logout('garbage')).statusCode).toBe(204);
    });
  });

  describe('protected routes', () => {
    it('answer 401 without a token', async () => {
      const res = await callProtected();
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });

    it.each([
      ['a malformed header', 'Token abc'],
      ['a garbage token', 'Bearer abc.def.ghi'],
    ])('answer 403 invalid_token for %s', async (_name, authorization) => {
      const res = await callProtected({ authorization });
      expect(res.statusCode).toBe(403);
      expect(res.headers['www-authenticate']).toContain('invalid_token');
    });

    it('answer 403 for a token signed with another key', async () => {
      const user = await createUser(t.db);
      const forged = await createAccessTokens('x'.repeat(32)).sign(user.id);
      const res = await callProtected({ authorization: `Bearer ${forged}` });
      expect(res.statusCode).toBe(403);
      expect(res.headers['www-authenticate']).toContain('invalid_token');
    });

    it('answer 403 for an expired token', async () => {
      const user = await createUser(t.db);
      // Signed by the app itself, but 16 minutes ago: its 15-minute life is over.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() - (ACCESS_TOKEN_TTL_SECONDS + 60) * 1000);
      const old = await t.app.accessTokens.sign(user.id);
      vi.useRealTimers();
      const res = await callProtected({ authorization: `Bearer ${old}` });
      expect(res.statusCode).toBe(403);
      expect(res.headers['www-authenticate']).toContain('invalid_token');
      // A short-lived token from the same factory expires the same way.
      const shortLived = createAccessTokens('y'.repeat(32), 1);
      const token = await shortLived.sign(user.id);
      expect(await shortLived.verify(token)).toMatchObject({ userId: user.id });
      await new Promise((r) => setTimeout(r, 2100));
      expect(await shortLived.verify(token)).toBeNull();
    });

    it('refuse a live token once its user is deleted (requireAuth itself)', async () => {
      const user = await createUser(t.db);
      const token = await t.app.accessTokens.sign(user.id);
      const request = bearerRequest(token);
      await requireAuth.call(t.app, request, {} as FastifyReply);
      expect(request.auth).toEqual({
        userId: user.id,
        isDemo: false,
        signedInAt: null,
        sessionGeneration: 0,
      });
      // As if the deletion's announcement were lost (PostgreSQL's LISTEN connection away; the next test
      // hears it): the account was seen a moment ago, so until LIVE_USER_TTL_MS passes only forget()
      // makes requireAuth look again.
      const unheard = vi.spyOn(t.app.liveUsers, 'forget').mockImplementation(() => {});
      await t.db.delete(users).where(eq(users.id, user.id));
      const meanwhile = bearerRequest(token);
      await requireAuth.call(t.app, meanwhile, {} as FastifyReply);
      expect(meanwhile.auth).toEqual({
        userId: user.id,
        isDemo: false,
        signedInAt: null,
        sessionGeneration: 0,
      });
      unheard.mockRestore();
      t.app.liveUsers.forget(user.id);
      const refused = bearerRequest(token);
      await expect(requireAuth.call(t.app, refused, {} as FastifyReply)).rejects.toMatchObject({
        statusCode: 403,
        headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
      });
      expect(refused.auth).toBeNull();
    });

    it('refuse it at once when the account is deleted elsewhere (PostgreSQL: another instance, or by hand)', async (ctx) => {
      // PGlite is this process's own database: nothing else can delete a row in it.
      if (t.database.kind !== 'postgres') return ctx.skip();
      const user = await createUser(t.db);
      const token = await t.app.accessTokens.sign(user.id);
      await requireAuth.call(t.app, bearerRequest(token), {} as FastifyReply);
      const forget = vi.spyOn(t.app.liveUsers, 'forget');
      try {
        // Not through the account service, which would call forget() itself: drizzle/0004's trigger
        // announces the deletion, and the auth plugin's LISTEN hears it.
        await t.db.delete(users).where(eq(users.id, user.id));
        await vi.waitFor(() => expect(forget).toHaveBeenCalledWith(user.id), { timeout: 5_000 });
      } finally {
        forget.mockRestore();
      }
      await expect(requireAuth.call(t.app, bearerRequest(token), {} as FastifyReply)).rejects.toMatchObject({
        statusCode: 403,
      });
    });

    /** A token signed with the app's own key, with exactly the claims given (jose fills in nothing). */
    const signedByApp = (claims: { sub?: string; exp?: number }) => {
      const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('neighbourhood-cats');
      jwt.setIssuedAt();
      if (claims.sub !== undefined) jwt.setSubject(claims.sub);
      if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
      return jwt.sign(new TextEncoder().encode(t.jwtSecret));
    };

    it('answer 403 for a token of the right key without an expiry', async () => {
      const user = await createUser(t.db);
      const inAMinute = Math.floor(Date.now() / 1000) + 60;
      // The same token with exp is accepted, so the refusal is about the missing claim alone.
      const withExp = await signedByApp({ sub: user.id, exp: inAMinute });
      expect((await callProtected({ authorization: `Bearer ${withExp}` })).statusCode).toBe(200);
      const forever = await signedByApp({ sub: user.id });
      const res = await callProtected({ authorization: `Bearer ${forever}` });
      expect(res.statusCode).toBe(403);
      expect(res.headers['www-authenticate']).toContain('invalid_token');
    });

    it('answer 403 for a token of the right key whose lifetime is longer than the configured one', async () => {
      const user = await createUser(t.db);
      const now = Math.floor(Date.now() / 1000);
      // Issue 46: the right secret with a 30-day exp; the same token with the configured life passes.
      const configured = await signedByApp({ sub: user.id, exp: now + ACCESS_TOKEN_TTL_SECONDS });
      expect((await callProtected({ authorization: `Bearer ${configured}` })).statusCode).toBe(200);
      for (const exp of [now + 30 * 24 * 3600, now + ACCESS_TOKEN_TTL_SECONDS + 5]) {
        const long = await signedByApp({ sub: user.id, exp });
        const res = await callProtected({ authorization: `Bearer ${long}` });
        expect(res.statusCode).toBe(403);
        expect(res.headers['www-authenticate']).toContain('invalid_token');
      }
    });

    it("treat a sub in another case as the same user: demo's id in upper case is still demo", async () => {
      const exp = Math.floor(Date.now() / 1000) + 60;
      const shouting = {
        authorization: `Bearer ${await signedByApp({ sub: DEMO_USER_ID.toUpperCase(), exp })}`,
      };
      const write = await callProtected(shouting);
      expect(write.statusCode).toBe(403);
      expect(write.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
      const me = await t.app.inject({ method: 'GET', url: '/api/profile/getMyProfile', headers: shouting });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ _id: DEMO_USER_ID, isDemo: true });
      // And any user's id in upper case is that user, in canonical form.
      const user = await createUser(t.db);
      const request = bearerRequest(await signedByApp({ sub: user.id.toUpperCase(), exp }));
      await requireAuth.call(t.app, request, {} as FastifyReply);
      expect(request.auth).toEqual({
        userId: user.id,
        isDemo: false,
        signedInAt: null,
        sessionGeneration: 0,
      });
    });

    it('answer 403 for a valid token of a user that does not exist', async () => {
      for (const sub of [randomUUID(), 'not-a-uuid']) {
        const token = await t.app.accessTokens.sign(sub);
        const res = await callProtected({ authorization: `Bearer ${token}` });
        expect(res.statusCode).toBe(403);
        expect(res.headers['www-authenticate']).toContain('invalid_token');
      }
    });
  });

  it('documents the routes in the OpenAPI document, account routes with bearer security', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, Record<string, { security?: unknown[] }>> }>();
    expect(Object.keys(doc.paths['/api/signup']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/login']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/refresh']!)).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/logout']!)).toEqual(['get']);
    expect(doc.paths['/api/login']!.post!.security).toBeUndefined();
    for (const path of ['username', 'email', 'password', 'location-privacy']) {
      expect(doc.paths[`/api/profile/settings/${path}`]!.put!.security).toEqual([{ bearer: [] }]);
    }
    expect(doc.paths['/api/profile/deleteUser/{userId}']!.delete!.security).toEqual([{ bearer: [] }]);
  });

  describe('login throttling per account', () => {
    const shiftFailures = (email: string, seconds: number) =>
      t.db
        .update(loginFailures)
        .set({ failedAt: sql`${loginFailures.failedAt} - make_interval(secs => ${seconds})` })
        .where(eq(loginFailures.emailLower, email.toLowerCase()));

    it('locks after 5 failures with 429 and Retry-After, growing, then lets the right password in', async () => {
      const user = await createUser(t.db);
      const wrong = { email: user.email, password: 'Wrong12345' };
      for (let i = 0; i < 5; i += 1) expect((await login(wrong)).statusCode).toBe(401);

      const locked = await login({ email: user.email, password: user.password });
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ message: AUTH_MESSAGES.tooManyAttempts });
      const firstDelay = Number(locked.headers['retry-after']);
      expect(firstDelay).toBeGreaterThan(50);
      expect(firstDelay).toBeLessThanOrEqual(60);
      expect(refreshCookie(locked)).toBeUndefined();
      // A different case of the same email is the same account.
      expect((await login({ ...wrong, email: user.email.toUpperCase() })).statusCode).toBe(429);

      // The first delay passes; one more failure locks for twice as long.
      await shiftFailures(user.email, 61);
      expect((await login(wrong)).statusCode).toBe(401);
      const again = await login(wrong);
      expect(again.statusCode).toBe(429);
      const secondDelay = Number(again.headers['retry-after']);
      expect(secondDelay).toBeGreaterThan(110);
      expect(secondDelay).toBeLessThanOrEqual(120);

      await shiftFailures(user.email, 121);
      expect((await login({ email: user.email, password: user.password })).statusCode).toBe(200);
      // Success clears the account's failures.
      expect(await t.db.$count(loginFailures, eq(loginFailures.emailLower, user.email.toLowerCase()))).toBe(
        0,
      );
    });

    it('checks at most 5 of 30 simultaneous wrong passwords, and then refuses the right one too', async () => {
      const user = await createUser(t.db);
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => login({ email: user.email, password: 'Wrong12345' })),
      );
      // Each 401 is a password actually checked; a 429 is refused before argon2 runs.
      const statuses = answers.map((res) => res.statusCode);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(25);
      for (const res of answers.filter((r) => r.statusCode === 429)) {
        expect(res.json()).toEqual({ message: AUTH_MESSAGES.tooManyAttempts });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect((await login({ email: user.email, password: user.password })).statusCode).toBe(429);
    });

    it('is never permanent: failures older than 15 minutes stop counting', async () => {
      const user = await createUser(t.db);
      for (let i = 0; i < 8; i += 1) await login({ email: user.email, password: 'Wrong12345' });
      expect((await login({ email: user.email, password: user.password })).statusCode).toBe(429);
      await shiftFailures(user.email, 15 * 60 + 1);
      expect((await login({ email: user.email, password: user.password })).statusCode).toBe(200);
    });

    it('throttles an unknown email exactly like a known one, and leaves other accounts alone', async () => {
      const email = `ghost_${uniqueSuffix()}@example.com`;
      for (let i = 0; i < 5; i += 1)
        expect((await login({ email, password: 'Wrong12345' })).statusCode).toBe(401);
      const res = await login({ email, password: 'Wrong12345' });
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBeDefined();
      const bystander = await createUser(t.db);
      expect((await login({ email: bystander.email, password: bystander.password })).statusCode).toBe(200);
    });

    it('does not lock the demo account, whose password is public', async () => {
      for (let i = 0; i < 7; i += 1) {
        expect((await login({ email: DEMO_EMAIL, password: 'Wrong12345' })).statusCode).toBe(401);
      }
      expect((await login({ email: DEMO_EMAIL, password: DEMO_PASSWORD })).statusCode).toBe(200);
    });

    describe('known browsers (device cookie)', () => {
      const loginFrom = (payload: { email: string; password: string }, device?: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/login',
          payload,
          ...(device ? { cookies: { device } } : {}),
        });
      async function knownBrowser(user: { email: string; password: string }) {
        const res = await loginFrom(user);
        expect(res.statusCode).toBe(200);
        return refreshCookie(res, 'device')!.value;
      }
      const lockOut = async (email: string) => {
        for (let i = 0; i < 5; i += 1)
          expect((await loginFrom({ email, password: 'Wrong12345' })).statusCode).toBe(401);
      };

      it('is set at login: httpOnly, SameSite=Strict, for a year', async () => {
        const user = await createUser(t.db);
        const res = await loginFrom(user);
        const cookie = refreshCookie(res, 'device')!;
        expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
        expect(cookie.maxAge).toBeGreaterThan(364 * 24 * 3600);
        expect(cookie.maxAge).toBeLessThanOrEqual(365 * 24 * 3600);
      });

      it("lets the owner's known browser through a lock an attacker caused, with the right password only", async () => {
        const owner = await createUser(t.db);
        const device = await knownBrowser(owner);
        await lockOut(owner.email);
        expect((await loginFrom(owner)).statusCode).toBe(429);

        const back = await loginFrom(owner, device);
        expect(back.statusCode).toBe(200);
        expect(back.json<{ userId: string }>().userId).toBe(owner.id);
        // The owner's success does not reopen the account to the attacker.
        const attacker = await loginFrom(owner);
        expect(attacker.statusCode).toBe(429);
        expect(attacker.json()).toEqual({ message: AUTH_MESSAGES.tooManyAttempts });
        expect((await loginFrom({ email: owner.email, password: 'Wrong12345' }, device)).statusCode).toBe(
          401,
        );
      });

      it('does not let a forged cookie or another account’s cookie through the lock', async () => {
        const owner = await createUser(t.db);
        const device = await knownBrowser(owner);
        const other = await createUser(t.db);
        const othersDevice = await knownBrowser(other);
        await lockOut(owner.email);
        const [userId, deviceId, expires, mac] = device.split('.') as [string, string, string, string];
        const forged = [
          othersDevice,
          `${userId}.${randomUUID()}.${expires}.${mac}`,
          `${userId}.${deviceId}.${Number(expires) + 1}.${mac}`,
          `${userId}.${deviceId}.${expires}.${Buffer.alloc(32).toString('base64url')}`,
          `${userId}.${deviceId}.${expires}`,
          'garbage',
        ];
        for (const cookie of forged) {
          const res = await loginFrom(owner, cookie);
          expect(res.statusCode, cookie).toBe(429);
        }
        expect((await loginFrom(owner, device)).statusCode).toBe(200);
      });

      it('counts wrong passwords from a known browser per device: 5 lock that device only', async () => {
        const owner = await createUser(t.db);
        const device = await knownBrowser(owner);
        const laptop = await knownBrowser(owner);
        for (let i = 0; i < 5; i += 1) {
          expect((await loginFrom({ email: owner.email, password: 'Wrong12345' }, device)).statusCode).toBe(
            401,
          );
        }
        const locked = await loginFrom(owner, device);
        expect(locked.statusCode).toBe(429);
        expect(Number(locked.headers['retry-after'])).toBeGreaterThan(50);
        // Under concurrency too: the device's allowance is spent.
        const burst = await Promise.all(
          Array.from({ length: 10 }, () => loginFrom({ email: owner.email, password: 'Wrong12345' }, device)),
        );
        expect(burst.map((r) => r.statusCode)).toEqual(Array(10).fill(429));
        // The owner's other browser and the account itself are not locked by that device's failures.
        expect((await loginFrom(owner, laptop)).statusCode).toBe(200);
        expect((await loginFrom(owner)).statusCode).toBe(200);
      });
    });

    it('grows the delay by doubling up to 15 minutes (unit)', () => {
      const now = new Date('2030-01-01T12:00:00Z');
      const at = (secondsAgo: number) => new Date(now.getTime() - secondsAgo * 1000);
      expect(lockRemainingMs([at(50), at(40), at(30), at(20)], now)).toBe(0);
      expect(lockRemainingMs([at(50), at(40), at(30), at(20), at(0)], now)).toBe(60_000);
      expect(lockRemainingMs([at(5), at(4), at(3), at(2), at(1), at(0)], now)).toBe(120_000);
      const many = Array.from({ length: 12 }, (_, i) => at(i));
      expect(lockRemainingMs(many, now)).toBe(LOGIN_THROTTLE.maxDelayMs);
      expect(lockRemainingMs([at(960), at(950), at(940), at(930), at(920)], now)).toBe(0);
    });
  });
});

describe('per-IP limits and https cookies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      PUBLIC_URL: 'https://cats.example',
      RATE_LIMIT_LOGIN_PER_MINUTE: '3',
      RATE_LIMIT_SIGNUP_PER_MINUTE: '2',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('limits logins per IP address with 429 and Retry-After', async () => {
    const user = await createUser(t.db);
    const from = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress,
        payload: { email: user.email, password: user.password },
      });
    for (let i = 0; i < 3; i += 1) expect((await from('203.0.113.7')).statusCode).toBe(200);
    const limited = await from('203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: AUTH_MESSAGES.tooManyRequests });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('203.0.113.8')).statusCode).toBe(200);
  });

  it('limits sign-ups per IP address', async () => {
    const from = (remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/api/signup', remoteAddress, payload: newUser() });
    expect((await from('198.51.100.1')).statusCode).toBe(201);
    expect((await from('198.51.100.1')).statusCode).toBe(201);
    const limited = await from('198.51.100.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await from('198.51.100.2')).statusCode).toBe(201);
  });

  it('uses a Secure __Host- cookie when served over https', async () => {
    const user = await createUser(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '192.0.2.50',
      payload: { email: user.email, password: user.password },
    });
    expect(res.statusCode).toBe(200);
    expect(refreshCookie(res)).toBeUndefined();
    const cookie = refreshCookie(res, '__Host-jwt')!;
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.domain).toBeUndefined();
    // Only the __Host- cookie is read.
    const plain = await t.app.inject({ method: 'GET', url: '/api/refresh', cookies: { jwt: cookie.value } });
    expect(plain.statusCode).toBe(401);
    const hosted = await t.app.inject({
      method: 'GET',
      url: '/api/refresh',
      cookies: { '__Host-jwt': cookie.value },
    });
    expect(hosted.statusCode).toBe(200);
    expect(refreshCookie(hosted, '__Host-jwt')!.secure).toBe(true);
    // The device cookie likewise.
    const device = refreshCookie(res, '__Host-device')!;
    expect(device).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(device.domain).toBeUndefined();
    expect(refreshCookie(res, 'device')).toBeUndefined();
  });
});
