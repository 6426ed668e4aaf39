import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, DEMO_USERNAME, GROUP_MESSAGES, USERNAME_HINT } from '@cats/contracts';
import { buildTestApp, uniqueSuffix, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser } from '../../../test/factories.ts';
import { backfillUsernameSkeletons } from './username-skeletons.ts';

// Issue 23: names made only of invisible characters, and new usernames that look like an existing one.
const INVISIBLE = ['\u200B\u200B', '\u3000', '\u2800', '\u115F', '\u200B \u2800\u3164', '\uFEFF\u2060'];

describe('impersonation by look-alike and invisible names', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SIGNUP_PER_MINUTE: '100000' });
  });
  afterAll(async () => t?.close());

  const signup = async (username: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      remoteAddress: `10.9.${randomInt(0, 256)}.${randomInt(0, 256)}`,
      payload: { username, email: `u_${uniqueSuffix()}@example.com`, password: 'Whiskers123' },
    });
    return { status: res.statusCode, body: res.json() as { message: string } };
  };
  const rename = async (user: { id: string; password: string }, username: string) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/profile/settings/username',
      headers: await authHeader(t.app, user.id),
      payload: { username, currentPassword: user.password },
    });
    return { status: res.statusCode, body: res.json() as { message: string; username?: string } };
  };
  const confusable = { status: 409, body: { message: AUTH_MESSAGES.usernameConfusable } };

  describe('group names', () => {
    it.each(INVISIBLE)('refuses a name of invisible characters only (%j)', async (name) => {
      const owner = await createUser(t.db);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/groups/createGroup',
        headers: await authHeader(t.app, owner.id),
        payload: { submitData: name },
      });
      expect({ status: res.statusCode, body: res.json() as unknown }).toEqual({
        status: 400,
        body: {
          message: expect.stringMatching(/^Group name (is required|must contain a visible character)$/),
        },
      });
    });

    it('refuses invisible-only names that survive trimming with the clear message', async () => {
      const owner = await createUser(t.db);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/groups/createGroup',
        headers: await authHeader(t.app, owner.id),
        payload: { submitData: '\u2800\u115F' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: GROUP_MESSAGES.nameInvisible });
    });

    it('accepts names with visible characters around invisible ones', async () => {
      const owner = await createUser(t.db);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/groups/createGroup',
        headers: await authHeader(t.app, owner.id),
        payload: { submitData: 'Café\u200B 🐈' },
      });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('usernames at sign-up', () => {
    it.each(INVISIBLE)('refuses an invisible-only username (%j) with the form hint', async (name) => {
      expect(await signup(name)).toEqual({ status: 400, body: { message: USERNAME_HINT } });
    });

    it("refuses 'dem0' and 'DEM0' next to the demo account's 'demo'", async () => {
      expect(DEMO_USERNAME).toBe('demo');
      expect(await signup('dem0')).toEqual(confusable);
      expect(await signup('DEM0')).toEqual(confusable);
    });

    it("refuses 'Iuna_lover' (capital I) and 'luna_1over' once 'luna_lover' exists", async () => {
      const suffix = uniqueSuffix().slice(-6);
      expect((await signup(`luna_lover${suffix}`)).status).toBe(201);
      expect(await signup(`Iuna_lover${suffix}`)).toEqual(confusable);
      expect(await signup(`luna_1over${suffix}`)).toEqual(confusable);
      expect(await signup(`lUNA_LOVER${suffix}`)).toEqual({
        status: 409,
        body: { message: AUTH_MESSAGES.usernameTaken },
      });
    });

    it("refuses 'modern' spelled 'rnodern' and a Cyrillic 'а' in place of a Latin 'a'", async () => {
      const suffix = uniqueSuffix().slice(-6);
      expect((await signup(`modern${suffix}`)).status).toBe(201);
      expect(await signup(`rnodern${suffix}`)).toEqual(confusable);
      // Usernames are ASCII by the spec's pattern: the Cyrillic letter never gets as far as the check.
      expect(await signup(`luna_lover\u0430${suffix}`.slice(0, 23))).toEqual({
        status: 400,
        body: { message: USERNAME_HINT },
      });
    });

    it('look-alike sign-ups at the same moment: one account, the others refused (the unique index decides)', async () => {
      const suffix = uniqueSuffix().slice(-6);
      const results = await Promise.all(['l', '1', 'I'].map((c) => signup(`race_${c}_${suffix}`)));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      for (const r of results.filter((r) => r.status === 409)) expect(r).toEqual(confusable);
    });

    it('still accepts names that only share letters', async () => {
      const suffix = uniqueSuffix().slice(-6);
      expect((await signup(`cat_${suffix}`)).status).toBe(201);
      expect((await signup(`cats_${suffix}`)).status).toBe(201);
      expect((await signup(`kat_${suffix}`)).status).toBe(201);
    });
  });

  describe('usernames on change', () => {
    it("refuses renaming to a look-alike of someone else's name ('dem0', 'Iuna_lover')", async () => {
      const suffix = uniqueSuffix().slice(-6);
      await createUser(t.db, { username: `luna_lover${suffix}` });
      const user = await createUser(t.db);
      expect(await rename(user, 'dem0')).toEqual(confusable);
      expect(await rename(user, `Iuna_lover${suffix}`)).toEqual(confusable);
      expect(await rename(user, '\u2800\u2800\u2800')).toEqual({
        status: 400,
        body: { message: USERNAME_HINT },
      });
    });

    it('a name never conflicts with its owner: changing case or a look-alike of oneself is fine', async () => {
      const suffix = uniqueSuffix().slice(-6);
      const user = await createUser(t.db, { username: `luna_lover${suffix}` });
      const res = await rename(user, `Iuna_LOVER${suffix}`);
      expect(res.status).toBe(200);
      expect(res.body.username).toBe(`Iuna_LOVER${suffix}`);
      // Its old look-alike is now free for nobody else either.
      expect(await signup(`luna_lover${suffix}`)).toEqual(confusable);
    });
  });
});

describe('accounts from before the look-alike key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SIGNUP_PER_MINUTE: '100000' });
  });
  afterAll(async () => t?.close());

  it('get their key at start-up, oldest first; a newer look-alike keeps its name, new ones are refused', async () => {
    const suffix = uniqueSuffix().slice(-6);
    const older = await createUser(t.db, { username: `olive_${suffix}`, usernameSkeleton: null });
    const newer = await createUser(t.db, { username: `0Iive_${suffix}`, usernameSkeleton: null });
    await backfillUsernameSkeletons(t.db);
    await backfillUsernameSkeletons(t.db); // again, as every start-up does: nothing changes
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { username: `o1ive_${suffix}`, email: `u_${suffix}@example.com`, password: 'Whiskers123' },
    });
    expect({ status: signup.statusCode, body: signup.json() as unknown }).toEqual({
      status: 409,
      body: { message: AUTH_MESSAGES.usernameConfusable },
    });
    // Both existing accounts keep their names and can still use them.
    for (const user of [older, newer]) {
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/profile/getMyProfile',
        headers: await authHeader(t.app, user.id),
      });
      expect((me.json() as { username: string }).username).toBe(user.username);
    }
  });
});
