import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, or, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import {
  AUTH_MESSAGES,
  DEMO_DISABLED_MESSAGE,
  DEMO_EMAIL,
  DEMO_USER_ID,
  DEMO_USERNAME,
  PASSWORD_HINT,
  RECENT_SIGN_IN_MINUTES,
  USERNAME_HINT,
  EMAIL_HINT,
} from '@cats/contracts';
import { buildTestApp, uniqueSuffix, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import {
  blocks,
  comments,
  groupMembers,
  groups,
  hiddenPosts,
  joinRequests,
  likes,
  loginFailures,
  postGroups,
  posts,
  refreshTokens,
  users,
} from '../../db/schema/index.ts';

const WEBP = Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ', 'binary');

describe('account settings and deletion API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '100000' });
  });
  afterAll(async () => {
    await t.close();
  });

  const put = async (url: string, user: { id: string } | null, payload: object, cookie?: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/profile/settings/${url}`,
      headers: user ? await authHeader(t.app, user.id) : {},
      payload,
      ...(cookie ? { cookies: { jwt: cookie } } : {}),
    });
  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  const refresh = (cookie: string) =>
    t.app.inject({ method: 'GET', url: '/api/refresh', cookies: { jwt: cookie } });
  const cookieOf = (res: LightMyRequestResponse) => res.cookies.find((c) => c.name === 'jwt')!.value;
  const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0];

  describe('every account route', () => {
    it.each([
      ['PUT', '/api/profile/settings/username'],
      ['PUT', '/api/profile/settings/email'],
      ['PUT', '/api/profile/settings/password'],
      ['PUT', '/api/profile/settings/location-privacy'],
      ['DELETE', `/api/profile/deleteUser/${DEMO_USER_ID}`],
    ] as const)('%s %s needs a bearer token (401)', async (method, url) => {
      const res = await t.app.inject({ method, url, payload: {} });
      expect(res.statusCode).toBe(401);
    });

    it.each([
      ['username', { username: 'demo_renamed', currentPassword: 'DemoCats123' }],
      ['email', { email: 'demo2@example.com', currentPassword: 'DemoCats123' }],
      ['password', { newPassword: 'NewDemo1234', currentPassword: 'DemoCats123' }],
      ['location-privacy', { exactPublicLocation: true }],
    ])('refuses the demo user changing %s with 403 Feature disabled for demo user', async (path, payload) => {
      const res = await put(path, { id: DEMO_USER_ID }, payload);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(await userRow(DEMO_USER_ID)).toMatchObject({
        username: DEMO_USERNAME,
        email: DEMO_EMAIL,
        exactPublicLocation: false,
      });
      expect((await login(DEMO_EMAIL, 'DemoCats123')).statusCode).toBe(200);
    });

    it('refuses the demo user deleting the account', async () => {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/profile/deleteUser/${DEMO_USER_ID}`,
        headers: await authHeader(t.app, DEMO_USER_ID),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
      expect(await userRow(DEMO_USER_ID)).toBeDefined();
    });
  });

  describe('PUT /api/profile/settings/username', () => {
    it('changes the display name and answers the own profile', async () => {
      const user = await createUser(t.db);
      const username = `new_${uniqueSuffix()}`;
      const res = await put('username', user, { username, currentPassword: user.password });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        _id: user.id,
        username,
        email: user.email,
        exactPublicLocation: false,
        altTextReminder: true,
        homeArea: null,
        isDemo: false,
        role: 'member',
      });
      expect((await userRow(user.id))!.username).toBe(username);
    });

    it('includes the picture URLs when the user has one', async () => {
      const key = `avatars/${randomBytes(16).toString('hex')}`;
      const user = await createUser(t.db, { profilePicKey: key });
      const res = await put('username', user, {
        username: `pic_${uniqueSuffix()}`,
        currentPassword: user.password,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        profilePicUrl: `/media/${key}/300.webp`,
        avatarUrl: `/media/${key}/72.webp`,
      });
    });

    it('answers 400 Current password is incorrect for a wrong password, and changes nothing', async () => {
      const user = await createUser(t.db);
      const res = await put('username', user, {
        username: `x_${uniqueSuffix()}`,
        currentPassword: 'Wrong12345',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Current password is incorrect' });
      expect((await userRow(user.id))!.username).toBe(user.username);
    });

    it('validates like sign-up', async () => {
      const user = await createUser(t.db);
      for (const username of ['ab', 'a'.repeat(24), 'no spaces']) {
        const res = await put('username', user, { username, currentPassword: user.password });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: USERNAME_HINT });
      }
      const missing = await put('username', user, { username: `ok_${uniqueSuffix()}` });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ message: 'Please enter your current password' });
    });

    it('answers 409 for a name taken in any case, but lets a user change the case of their own', async () => {
      const user = await createUser(t.db);
      const other = await createUser(t.db);
      const taken = await put('username', user, {
        username: other.username.toUpperCase(),
        currentPassword: user.password,
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({ message: AUTH_MESSAGES.usernameTaken });
      const own = await put('username', user, {
        username: user.username.toUpperCase(),
        currentPassword: user.password,
      });
      expect(own.statusCode).toBe(200);
      expect(own.json().username).toBe(user.username.toUpperCase());
    });
  });

  describe('PUT /api/profile/settings/email', () => {
    // Issue 29: the change waits for the link mailed to the new address (email-change.test.ts follows it).
    it('changes nothing yet: 202, a link goes to the new address, the old one still logs in', async () => {
      const user = await createUser(t.db);
      const email = `moved_${uniqueSuffix()}@example.com`;
      const res = await put('email', user, { email, currentPassword: user.password });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({
        message: `We sent a link to ${email}. Your email changes when you follow it.`,
        pendingEmail: email,
      });
      expect((await userRow(user.id))!.email).toBe(user.email);
      expect((await login(user.email, user.password)).statusCode).toBe(200);
      expect((await login(email, user.password)).statusCode).toBe(401);
    });

    it('refuses an invalid email (400), a wrong password (400) and a taken email in any case (409)', async () => {
      const user = await createUser(t.db);
      const other = await createUser(t.db);
      const invalid = await put('email', user, { email: 'nope', currentPassword: user.password });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json()).toEqual({ message: EMAIL_HINT });
      const wrong = await put('email', user, {
        email: `w_${uniqueSuffix()}@example.com`,
        currentPassword: 'Bad12345',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ message: AUTH_MESSAGES.currentPasswordIncorrect });
      const taken = await put('email', user, {
        email: other.email.toUpperCase(),
        currentPassword: user.password,
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({ message: AUTH_MESSAGES.emailTaken });
      expect((await userRow(user.id))!.email).toBe(user.email);
    });
  });

  describe('PUT /api/profile/settings/password', () => {
    it('changes the password and ends every other session, keeping the current one', async () => {
      const user = await createUser(t.db);
      const here = cookieOf(await login(user.email, user.password));
      const elsewhere = cookieOf(await login(user.email, user.password));
      const res = await put(
        'password',
        user,
        { currentPassword: user.password, newPassword: 'Purring456' },
        here,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ _id: user.id, username: user.username });

      expect((await refresh(elsewhere)).statusCode).toBe(403);
      expect((await refresh(here)).statusCode).toBe(200);
      expect((await login(user.email, user.password)).statusCode).toBe(401);
      expect((await login(user.email, 'Purring456')).statusCode).toBe(200);
    });

    it('ends every access token signed before the change at once, the caller’s session refreshing into a new one', async () => {
      const user = await createUser(t.db);
      const here = await login(user.email, user.password);
      const elsewhere = await login(user.email, user.password);
      const tokenOf = (res: LightMyRequestResponse) => res.json<{ accessToken: string }>().accessToken;
      const privacy = (token: string) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/profile/settings/location-privacy',
          headers: { authorization: `Bearer ${token}` },
          payload: { exactPublicLocation: false },
        });
      // Both tokens work, and are now known to the auth plugin (seen within LIVE_USER_TTL_MS).
      expect((await privacy(tokenOf(here))).statusCode).toBe(200);
      expect((await privacy(tokenOf(elsewhere))).statusCode).toBe(200);
      // Signed in the very second of the change: the generation, not the time, decides.
      const sameSecond = await t.app.accessTokens.sign(user.id, { signedInAt: new Date() });
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/settings/password',
        headers: { authorization: `Bearer ${tokenOf(here)}` },
        payload: { currentPassword: user.password, newPassword: 'Purring456' },
        cookies: { jwt: cookieOf(here) },
      });
      expect(res.statusCode).toBe(200);
      for (const token of [tokenOf(elsewhere), tokenOf(here), sameSecond]) {
        const refused = await privacy(token);
        expect(refused.statusCode).toBe(403);
        expect(refused.headers['www-authenticate']).toContain('invalid_token');
      }
      // What the web client does on that 403: refresh once; the new token works, and counts as a
      // fresh sign-in (the password was just typed), so the account can be deleted without it.
      const renewed = await refresh(cookieOf(here));
      expect(renewed.statusCode).toBe(200);
      expect((await privacy(tokenOf(renewed))).statusCode).toBe(200);
      const newSession = await login(user.email, 'Purring456');
      expect((await privacy(tokenOf(newSession))).statusCode).toBe(200);
      const gone = await t.app.inject({
        method: 'DELETE',
        url: `/api/profile/deleteUser/${user.id}`,
        headers: { authorization: `Bearer ${tokenOf(renewed)}` },
      });
      expect(gone.statusCode).toBe(204);
    });

    it('ends every session when the request carries no refresh cookie', async () => {
      const user = await createUser(t.db);
      const session = cookieOf(await login(user.email, user.password));
      const res = await put('password', user, { currentPassword: user.password, newPassword: 'Purring456' });
      expect(res.statusCode).toBe(200);
      expect((await refresh(session)).statusCode).toBe(403);
    });

    it('does not keep a session of another user named by the cookie', async () => {
      const user = await createUser(t.db);
      const other = await createUser(t.db);
      const mine = cookieOf(await login(user.email, user.password));
      const theirs = cookieOf(await login(other.email, other.password));
      const res = await put(
        'password',
        user,
        { currentPassword: user.password, newPassword: 'Purring456' },
        theirs,
      );
      expect(res.statusCode).toBe(200);
      expect((await refresh(mine)).statusCode).toBe(403);
      expect((await refresh(theirs)).statusCode).toBe(200);
    });

    it('refuses a weak new password and a wrong current one, changing nothing', async () => {
      const user = await createUser(t.db);
      const weak = await put('password', user, { currentPassword: user.password, newPassword: 'weak' });
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toEqual({ message: PASSWORD_HINT });
      const wrong = await put('password', user, { currentPassword: 'Wrong12345', newPassword: 'Purring456' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ message: AUTH_MESSAGES.currentPasswordIncorrect });
      expect((await login(user.email, user.password)).statusCode).toBe(200);
    });

    it('throttles guesses of the current password like logins (429 after 5)', async () => {
      const user = await createUser(t.db);
      for (let i = 0; i < 5; i += 1) {
        const res = await put('password', user, {
          currentPassword: `Wrong1234${i}`,
          newPassword: 'Purring456',
        });
        expect(res.statusCode).toBe(400);
      }
      const locked = await put('password', user, {
        currentPassword: user.password,
        newPassword: 'Purring456',
      });
      expect(locked.statusCode).toBe(429);
      expect(locked.headers['retry-after']).toBeDefined();
      expect((await login(user.email, user.password)).statusCode).toBe(429);
    });

    it('checks at most 5 of 30 simultaneous guesses of the current password', async () => {
      const user = await createUser(t.db);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          put('password', user, { currentPassword: `Wrong1234${i}`, newPassword: 'Purring456' }),
        ),
      );
      const statuses = answers.map((res) => res.statusCode);
      expect(statuses.filter((s) => s === 400)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(25);
      const locked = await put('password', user, {
        currentPassword: user.password,
        newPassword: 'Purring456',
      });
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ message: AUTH_MESSAGES.tooManyAttempts });
      expect((await userRow(user.id))!.passwordHash).toBe(user.passwordHash);
    });

    it("lets the owner's known browser confirm the password while an attacker keeps the account locked", async () => {
      const user = await createUser(t.db);
      const loggedIn = await login(user.email, user.password);
      const device = loggedIn.cookies.find((c) => c.name === 'device')!.value;
      for (let i = 0; i < 5; i += 1) expect((await login(user.email, 'Wrong12345')).statusCode).toBe(401);
      const change = async (cookies: Record<string, string>) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/profile/settings/password',
          headers: await authHeader(t.app, user.id),
          payload: { currentPassword: user.password, newPassword: 'Purring456' },
          cookies,
        });
      // A stolen access token without the browser's cookie is held by the account's lock.
      expect((await change({})).statusCode).toBe(429);
      const other = await createUser(t.db);
      const othersDevice = (await login(other.email, other.password)).cookies.find(
        (c) => c.name === 'device',
      )!;
      expect((await change({ device: othersDevice.value })).statusCode).toBe(429);
      const owner = await change({ device });
      expect(owner.statusCode).toBe(200);
      expect((await userRow(user.id))!.passwordHash).not.toBe(user.passwordHash);
    });
  });

  describe('PUT /api/profile/settings/location-privacy', () => {
    it('switches exact public locations on and off without a password, for the caller only', async () => {
      const user = await createUser(t.db);
      const other = await createUser(t.db);
      const on = await put('location-privacy', user, { exactPublicLocation: true, currentUserId: other.id });
      expect(on.statusCode).toBe(200);
      expect(on.json()).toMatchObject({ _id: user.id, exactPublicLocation: true });
      expect((await userRow(user.id))!.exactPublicLocation).toBe(true);
      expect((await userRow(other.id))!.exactPublicLocation).toBe(false);
      const off = await put('location-privacy', user, { exactPublicLocation: false });
      expect(off.json()).toMatchObject({ exactPublicLocation: false });
      const bad = await put('location-privacy', user, { exactPublicLocation: 'yes' });
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('DELETE /api/profile/deleteUser/:userId', () => {
    const del = async (caller: { id: string }, userId: string, cookie?: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/profile/deleteUser/${userId}`,
        headers: await authHeader(t.app, caller.id),
        ...(cookie ? { cookies: { jwt: cookie } } : {}),
      });

    it("refuses someone else's account, an unknown id and a malformed id with 403", async () => {
      const user = await createUser(t.db);
      const other = await createUser(t.db);
      for (const id of [other.id, randomUUID(), 'not-an-id', DEMO_USER_ID]) {
        const res = await del(user, id);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: 'Forbidden' });
      }
      expect(await userRow(other.id)).toBeDefined();
      expect(await userRow(user.id)).toBeDefined();
      expect(await userRow(DEMO_USER_ID)).toBeDefined();
    });

    it('deletes the account with every row and file it owns, and nothing of anyone else', async () => {
      const user = await createUser(t.db, { profilePicKey: `avatars/${randomBytes(16).toString('hex')}` });
      const other = await createUser(t.db);
      const third = await createUser(t.db);

      // The user's posts, with files; one shares its (content-addressed) media with another user's post.
      const own = [await createPost(t.db, user.id), await createPost(t.db, user.id)];
      const sharedKey = `posts/${randomBytes(16).toString('hex')}`;
      own.push(await createPost(t.db, user.id, { mediaKey: sharedKey }));
      const othersPost = await createPost(t.db, other.id);
      const othersSameImage = await createPost(t.db, third.id, { mediaKey: sharedKey });
      const files = [...own.map((p) => p.mediaKey), user.profilePicKey!].flatMap((prefix) => [
        `${prefix}/64.webp`,
        `${prefix}/800.webp`,
      ]);
      for (const key of [...files, `${othersPost.mediaKey}/64.webp`])
        await t.storage.put(key, WEBP, 'image/webp');

      // What the user did to others, and what others did to the user's things.
      await t.db.insert(comments).values([
        { postId: othersPost.id, userId: user.id, body: 'Lovely cat' },
        { postId: own[0]!.id, userId: other.id, body: 'Yours is lovely too' },
        { postId: othersPost.id, userId: other.id, body: 'Thanks' },
      ]);
      await t.db.insert(likes).values([
        { postId: othersPost.id, userId: user.id },
        { postId: own[0]!.id, userId: other.id },
        { postId: othersPost.id, userId: third.id },
      ]);
      await t.db.insert(hiddenPosts).values([
        { postId: othersSameImage.id, userId: user.id },
        { postId: own[1]!.id, userId: other.id },
      ]);
      await t.db.insert(blocks).values([
        { blockerId: user.id, blockedId: third.id },
        { blockerId: other.id, blockedId: user.id },
      ]);
      const code = () => `Cats#${randomBytes(3).toString('hex')}`;
      const [ownedGroup] = await t.db
        .insert(groups)
        .values({ name: 'My street', code: code(), ownerId: user.id })
        .returning();
      const [othersGroup] = await t.db
        .insert(groups)
        .values({ name: 'Their street', code: code(), ownerId: other.id })
        .returning();
      const [thirdGroup] = await t.db
        .insert(groups)
        .values({ name: 'Third street', code: code(), ownerId: third.id })
        .returning();
      await t.db.insert(groupMembers).values([
        { groupId: ownedGroup!.id, userId: user.id, role: 'owner' },
        { groupId: ownedGroup!.id, userId: other.id },
        { groupId: othersGroup!.id, userId: other.id, role: 'owner' },
        { groupId: othersGroup!.id, userId: user.id },
      ]);
      await t.db.insert(joinRequests).values([{ groupId: thirdGroup!.id, userId: user.id }]);
      await t.db.insert(postGroups).values([
        { postId: own[0]!.id, groupId: othersGroup!.id, userId: own[0]!.userId },
        { postId: othersPost.id, groupId: ownedGroup!.id, userId: othersPost.userId },
        { postId: othersPost.id, groupId: othersGroup!.id, userId: othersPost.userId },
      ]);

      // Sessions and a failed login.
      const session = cookieOf(await login(user.email, user.password));
      const secondSession = cookieOf(await login(user.email, user.password));
      const accessToken = (await login(user.email, user.password)).json<{ accessToken: string }>()
        .accessToken;
      expect((await login(user.email, 'Wrong12345')).statusCode).toBe(401);
      const bearer = { authorization: `Bearer ${accessToken}` };

      const ownIds = own.map((p) => p.id);
      const ownedGroupIds = [ownedGroup!.id];
      const counts = async () => ({
        users: await t.db.$count(users, eq(users.id, user.id)),
        posts: await t.db.$count(posts, eq(posts.userId, user.id)),
        comments: await t.db.$count(
          comments,
          or(eq(comments.userId, user.id), inArray(comments.postId, ownIds)),
        ),
        likes: await t.db.$count(likes, or(eq(likes.userId, user.id), inArray(likes.postId, ownIds))),
        hiddenPosts: await t.db.$count(
          hiddenPosts,
          or(eq(hiddenPosts.userId, user.id), inArray(hiddenPosts.postId, ownIds)),
        ),
        blocks: await t.db.$count(blocks, or(eq(blocks.blockerId, user.id), eq(blocks.blockedId, user.id))),
        groups: await t.db.$count(groups, eq(groups.ownerId, user.id)),
        groupMembers: await t.db.$count(
          groupMembers,
          or(eq(groupMembers.userId, user.id), inArray(groupMembers.groupId, ownedGroupIds)),
        ),
        joinRequests: await t.db.$count(joinRequests, eq(joinRequests.userId, user.id)),
        postGroups: await t.db.$count(
          postGroups,
          or(inArray(postGroups.postId, ownIds), inArray(postGroups.groupId, ownedGroupIds)),
        ),
        refreshTokens: await t.db.$count(refreshTokens, eq(refreshTokens.userId, user.id)),
        loginFailures: await t.db.$count(
          loginFailures,
          sql`${loginFailures.emailLower} = lower(${user.email})`,
        ),
      });
      // Every table really holds something of the user before, so the zeros after mean something.
      const before = await counts();
      for (const [table, count] of Object.entries(before)) expect(count, table).toBeGreaterThan(0);
      for (const key of files) expect(await t.storage.exists(key), key).toBe(true);

      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/profile/deleteUser/${user.id}`,
        headers: bearer,
        cookies: { jwt: session },
      });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const cleared = res.cookies.find((c) => c.name === 'jwt')!;
      expect(cleared.value).toBe('');

      const after = await counts();
      for (const [table, count] of Object.entries(after)) expect(count, table).toBe(0);
      // No file of the user is left: not the post variants, not the profile picture, not the folders.
      for (const key of files.filter((k) => !k.startsWith(sharedKey))) {
        expect(await t.storage.exists(key), key).toBe(false);
      }
      for (const prefix of [own[0]!.mediaKey, own[1]!.mediaKey, user.profilePicKey!]) {
        expect(existsSync(join(t.mediaDir, prefix)), prefix).toBe(false);
      }
      // The image another user also posted stays, with everything of the other users.
      expect(await t.storage.exists(`${sharedKey}/64.webp`)).toBe(true);
      expect(await t.storage.exists(`${othersPost.mediaKey}/64.webp`)).toBe(true);
      expect(await t.db.$count(posts, inArray(posts.id, [othersPost.id, othersSameImage.id]))).toBe(2);
      expect(await t.db.$count(comments, eq(comments.postId, othersPost.id))).toBe(1);
      expect(await t.db.$count(likes, eq(likes.postId, othersPost.id))).toBe(1);
      expect(await t.db.$count(groups, inArray(groups.id, [othersGroup!.id, thirdGroup!.id]))).toBe(2);
      expect(await t.db.$count(groupMembers, eq(groupMembers.groupId, othersGroup!.id))).toBe(1);
      expect(await t.db.$count(postGroups, eq(postGroups.groupId, othersGroup!.id))).toBe(1);
      expect(await userRow(other.id)).toBeDefined();
      expect(await userRow(third.id)).toBeDefined();

      // Nothing works in the user's name any more.
      const stillLive = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/settings/location-privacy',
        headers: bearer,
        payload: { exactPublicLocation: true },
      });
      expect(stillLive.statusCode).toBe(403);
      expect(stillLive.headers['www-authenticate']).toContain('invalid_token');
      // A route that does not load the user itself relies on requireAuth alone, which saw the account
      // a moment ago (the DELETE) and must not go on trusting that.
      const feed = await t.app.inject({ method: 'GET', url: '/api/feed/1', headers: bearer });
      expect(feed.statusCode).toBe(403);
      expect(feed.headers['www-authenticate']).toContain('invalid_token');
      expect((await refresh(session)).statusCode).toBe(403);
      expect((await refresh(secondSession)).statusCode).toBe(403);
      expect((await login(user.email, user.password)).statusCode).toBe(401);
      const again = await t.app.inject({
        method: 'DELETE',
        url: `/api/profile/deleteUser/${user.id}`,
        headers: bearer,
      });
      expect(again.statusCode).toBe(403);

      // The name and email are free again.
      const signup = await t.app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { username: user.username, email: user.email, password: 'Fresh12345' },
      });
      expect(signup.statusCode).toBe(201);
    });

    describe('needs a recent sign-in or the password (issue 46)', () => {
      /** An access token of a session whose password was typed `minutesAgo` minutes ago. */
      const signedInAgo = async (userId: string, minutesAgo: number | null) =>
        `Bearer ${await t.app.accessTokens.sign(userId, {
          signedInAt: minutesAgo === null ? null : new Date(Date.now() - minutesAgo * 60_000),
        })}`;
      const deleteWith = (userId: string, authorization: string, payload?: object) =>
        t.app.inject({
          method: 'DELETE',
          url: `/api/profile/deleteUser/${userId}`,
          headers: { authorization },
          ...(payload ? { payload } : {}),
        });

      it('refuses a token whose session typed the password too long ago, with a message the client shows', async () => {
        const user = await createUser(t.db);
        for (const minutesAgo of [RECENT_SIGN_IN_MINUTES + 1, 60 * 24, null]) {
          const res = await deleteWith(user.id, await signedInAgo(user.id, minutesAgo));
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual({ message: AUTH_MESSAGES.recentSignInRequired });
          // Not a token problem: the web client must not refresh and retry.
          expect(res.headers['www-authenticate']).toBeUndefined();
        }
        const spanish = await t.app.inject({
          method: 'DELETE',
          url: `/api/profile/deleteUser/${user.id}`,
          headers: { authorization: await signedInAgo(user.id, 30), 'accept-language': 'es' },
        });
        expect(spanish.json()).toEqual({ message: 'Por seguridad, escribe tu contraseña para confirmar' });
        expect(await userRow(user.id)).toBeDefined();
      });

      it('refuses a wrong password with 400 even in a fresh session, and deletes with the right one', async () => {
        const user = await createUser(t.db);
        const wrong = await deleteWith(user.id, await signedInAgo(user.id, 0), { password: 'Nope12345' });
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json()).toEqual({ message: AUTH_MESSAGES.currentPasswordIncorrect });
        expect(await userRow(user.id)).toBeDefined();
        const old = await signedInAgo(user.id, 60);
        const right = await deleteWith(user.id, old, { password: user.password });
        expect(right.statusCode).toBe(204);
        expect(await userRow(user.id)).toBeUndefined();
      });

      it('deletes without the password within the recent window, as right after a login', async () => {
        const user = await createUser(t.db);
        const session = await login(user.email, user.password);
        const token = session.json<{ accessToken: string }>().accessToken;
        const res = await deleteWith(user.id, `Bearer ${token}`);
        expect(res.statusCode).toBe(204);
        // And the session's refreshed tokens keep the time of the login, not of the refresh.
        const other = await createUser(t.db);
        const otherSession = cookieOf(await login(other.email, other.password));
        await t.db
          .update(refreshTokens)
          .set({ signedInAt: new Date(Date.now() - (RECENT_SIGN_IN_MINUTES + 5) * 60_000) })
          .where(eq(refreshTokens.userId, other.id));
        const refreshed = await refresh(otherSession);
        expect(refreshed.statusCode).toBe(200);
        const late = await deleteWith(
          other.id,
          `Bearer ${refreshed.json<{ accessToken: string }>().accessToken}`,
        );
        expect(late.statusCode).toBe(403);
        expect(late.json()).toEqual({ message: AUTH_MESSAGES.recentSignInRequired });
      });
    });

    it('deletes an account with nothing in it (204) and accepts the id in upper case', async () => {
      const user: CreatedUser = await createUser(t.db);
      const res = await del(user, user.id.toUpperCase());
      expect(res.statusCode).toBe(204);
      expect(await userRow(user.id)).toBeUndefined();
    });
  });
});
