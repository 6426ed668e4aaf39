import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { suspendedMessage, type ModerationAction } from '@cats/contracts';
import { comments, posts, reports, users } from '../../db/schema/index.ts';
import { buildTestApp, secondInstance, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';
import { suspensionSweepPlugin, sweepEndedSuspensions } from './suspensions.ts';

/**
 * Issue 27, suspensions: a suspended account cannot log in or refresh (403, saying until when), its
 * live access tokens stop working at its next request on every instance, its posts and comments are
 * hidden (author_suspended) until the suspension ends (the sweep, or lazily at login) or is lifted.
 */
let t: TestApp;
let modHeaders: Record<string, string>;

/** Any protected route will do: the caller's own profile. */
const PROTECTED = '/api/profile/getMyProfile';

beforeAll(async () => {
  t = await buildTestApp(NO_RATE_LIMITS);
  const mod = await createUser(t.db);
  await t.db.update(users).set({ role: 'moderator' }).where(eq(users.id, mod.id));
  modHeaders = await authHeader(t.app, mod.id);
});
afterAll(async () => {
  await t?.close();
});

async function suspend(user: CreatedUser, suspendDays: number | null): Promise<ModerationAction> {
  const [row] = await t.db
    .insert(reports)
    .values({
      reporterId: (await createUser(t.db)).id,
      targetType: 'user',
      targetId: user.id,
      targetUserId: user.id,
      reason: 'harassment',
      snapshot: {},
    })
    .returning({ id: reports.id });
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/moderation/reports/${row!.id}/actions`,
    headers: modHeaders,
    payload: { actions: [{ action: 'suspend', rule: 'harassment', explanation: 'Threats.', suspendDays }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { actions: ModerationAction[] }).actions[0]!;
}

const login = (app: FastifyInstance, user: CreatedUser) =>
  app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: user.password } });
const refresh = (cookie: string) =>
  t.app.inject({ method: 'GET', url: '/api/refresh', cookies: { jwt: cookie } });
const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === 'jwt')!.value;
const suspensionOf = async (userId: string) =>
  (
    await t.db
      .select({ at: users.suspendedAt, until: users.suspendedUntil })
      .from(users)
      .where(eq(users.id, userId))
  )[0]!;

describe('suspendedMessage', () => {
  it('names the end in UTC, rounded up to the minute, or says for good', () => {
    expect(suspendedMessage(new Date('2026-12-02T14:00:00Z'))).toBe(
      'Your account is suspended until 2 December 2026 at 14:00 UTC.',
    );
    expect(suspendedMessage(new Date('2026-12-02T13:59:00.001Z'))).toBe(
      'Your account is suspended until 2 December 2026 at 14:00 UTC.',
    );
    expect(suspendedMessage(new Date('2027-01-09T07:05:00Z'))).toBe(
      'Your account is suspended until 9 January 2027 at 07:05 UTC.',
    );
    expect(suspendedMessage(null)).toBe('Your account is suspended.');
  });
});

describe('a suspended account', () => {
  it('cannot log in: 403 saying until when; a wrong password still learns nothing', async () => {
    const user = await createUser(t.db);
    await suspend(user, 7);
    const { until } = await suspensionOf(user.id);
    const res = await login(t.app, user);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: suspendedMessage(until) });
    // The date is the suspension's, a week from now.
    const inAWeek = new Date(Date.now() + 7 * 86_400_000);
    const day = `${inAWeek.getUTCDate()} ${inAWeek.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })} ${inAWeek.getUTCFullYear()}`;
    expect((res.json() as { message: string }).message).toContain(`until ${day} at `);
    expect(res.cookies.find((c) => c.name === 'jwt')).toBeUndefined();
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: user.email, password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);

    const forGood = await createUser(t.db);
    await suspend(forGood, null);
    const refused = await login(t.app, forGood);
    expect([refused.statusCode, refused.json()]).toEqual([403, { message: 'Your account is suspended.' }]);
  });

  it('cannot refresh its session, and its live access token is refused at the next request', async () => {
    const user = await createUser(t.db);
    const session = await login(t.app, user);
    expect(session.statusCode).toBe(200);
    const headers = { authorization: `Bearer ${(session.json() as { accessToken: string }).accessToken}` };
    expect((await t.app.inject({ method: 'GET', url: PROTECTED, headers })).statusCode).toBe(200);
    await suspend(user, 1);
    const next = await t.app.inject({ method: 'GET', url: PROTECTED, headers });
    expect(next.statusCode).toBe(403);
    expect(next.headers['www-authenticate']).toContain('invalid_token');
    const { until } = await suspensionOf(user.id);
    const res = await refresh(cookieOf(session));
    expect([res.statusCode, res.json()]).toEqual([403, { message: suspendedMessage(until) }]);
  });

  it('is refused at once on another instance of the app on the same database', async () => {
    // PostgreSQL: its own pool and listener; PGlite: the same database in this process.
    const { app: other, close: closeOther } = await secondInstance(t);
    try {
      const user = await createUser(t.db);
      const headers = await authHeader(other, user.id);
      // The other instance has just seen the account: without an announcement it would honour the
      // token for LIVE_USER_TTL_MS more.
      expect((await other.inject({ method: 'GET', url: PROTECTED, headers })).statusCode).toBe(200);
      const forget = vi.spyOn(other.liveUsers, 'forget');
      await suspend(user, 30);
      await vi.waitFor(() => expect(forget).toHaveBeenCalledWith(user.id), { timeout: 5_000 });
      forget.mockRestore();
      const res = await other.inject({ method: 'GET', url: PROTECTED, headers });
      expect(res.statusCode).toBe(403);
      expect((await login(other, user)).statusCode).toBe(403);
    } finally {
      await closeOther();
    }
  });

  it('hides its posts and comments until the suspension is lifted; then it logs in again', async () => {
    const user = await createUser(t.db);
    const post = await createPost(t.db, user.id);
    await t.db.insert(comments).values({ postId: post.id, userId: user.id, body: 'mine' });
    const action = await suspend(user, null);
    const flags = async () => [
      (await t.db.select().from(posts).where(eq(posts.id, post.id)))[0]!.authorSuspended,
      ...(await t.db.select().from(comments).where(eq(comments.userId, user.id))).map(
        (c) => c.authorSuspended,
      ),
    ];
    expect(await flags()).toEqual([true, true]);
    const lifted = await t.app.inject({
      method: 'POST',
      url: `/api/moderation/actions/${action._id}/restore`,
      headers: modHeaders,
      payload: { explanation: 'Appeal upheld.' },
    });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(await flags()).toEqual([false, false]);
    expect((await login(t.app, user)).statusCode).toBe(200);
  });
});

describe('when a suspension ends', () => {
  const backdate = (userId: string) =>
    t.db
      .update(users)
      .set({ suspendedUntil: new Date(Date.now() - 1000) })
      .where(eq(users.id, userId));

  it('the sweep lifts it and shows the posts and comments again; ongoing ones stay', async () => {
    const ended = await createUser(t.db);
    const ongoing = await createUser(t.db);
    const endedPost = await createPost(t.db, ended.id);
    const ongoingPost = await createPost(t.db, ongoing.id);
    await t.db.insert(comments).values({ postId: ongoingPost.id, userId: ended.id, body: 'hi' });
    await suspend(ended, 1);
    await suspend(ongoing, 1);
    await backdate(ended.id);
    // An ended suspension no longer counts, even before the sweep.
    expect(
      (await t.app.inject({ method: 'GET', url: PROTECTED, headers: await authHeader(t.app, ended.id) }))
        .statusCode,
    ).toBe(200);
    expect(await sweepEndedSuspensions(t.db)).toBeGreaterThanOrEqual(1);
    expect(await suspensionOf(ended.id)).toEqual({ at: null, until: null });
    expect((await suspensionOf(ongoing.id)).at).toBeInstanceOf(Date);
    const flag = async (id: string) =>
      (await t.db.select().from(posts).where(eq(posts.id, id)))[0]!.authorSuspended;
    expect(await flag(endedPost.id)).toBe(false);
    expect(await flag(ongoingPost.id)).toBe(true);
    const [c] = await t.db.select().from(comments).where(eq(comments.userId, ended.id));
    expect(c!.authorSuspended).toBe(false);
    expect((await login(t.app, ended)).statusCode).toBe(200);
    expect((await login(t.app, ongoing)).statusCode).toBe(403);
    // Nothing left to lift.
    expect(await sweepEndedSuspensions(t.db)).toBe(0);
  });

  it('a login lifts it at once, before the sweep comes by', async () => {
    const user = await createUser(t.db);
    const post = await createPost(t.db, user.id);
    await suspend(user, 7);
    await backdate(user.id);
    const res = await login(t.app, user);
    expect(res.statusCode, res.body).toBe(200);
    expect(await suspensionOf(user.id)).toEqual({ at: null, until: null });
    expect((await t.db.select().from(posts).where(eq(posts.id, post.id)))[0]!.authorSuspended).toBe(false);
  });

  it('the sweep runs when the app is ready, then every interval, and stops when the app closes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const sweep = vi.fn(async (_now: Date) => 0);
      const app = Fastify();
      await app.register(suspensionSweepPlugin, { intervalMs: 60_000, sweep });
      await app.ready();
      expect(sweep).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(150_000);
      expect(sweep).toHaveBeenCalledTimes(3);
      await app.close();
      await vi.advanceTimersByTimeAsync(300_000);
      expect(sweep).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
