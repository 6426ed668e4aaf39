import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DISABLED_MESSAGE, DEMO_USER_ID } from '@cats/contracts';
import {
  blocks,
  catFollows,
  comments,
  notifications,
  pushSubscriptions,
  webPushKeys,
} from '../../db/schema/index.ts';
import { buildTestApp, secondInstance, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createCat, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import {
  browserSubscription,
  startFakePushService,
  verifyVapid,
  type BrowserSubscription,
  type FakePushService,
  type ReceivedPush,
} from '../../../test/push-service.ts';
import { addNotification } from '../notifications/notifications.repository.ts';
import { PUSH_EXCERPT_LENGTH, type PushMessage } from './push-message.ts';
import { MAX_SUBSCRIPTIONS_PER_USER, PUSH_MESSAGES } from './push.service.ts';
import { resolveVapidKeys } from './vapid-keys.ts';

/**
 * Web Push end to end in process (issue 25): likes and comments become encrypted pushes to a push
 * service played by a local HTTP server, which checks what a real one would (VAPID signature and
 * audience, TTL, encoding) and decrypts the message as the browser would.
 */
describe('web push', () => {
  let t: TestApp;
  let service: FakePushService;
  let publicKey: string;
  let paths = 0;

  beforeAll(async () => {
    service = await startFakePushService();
    t = await buildTestApp({ PUSH_ENDPOINT_HOSTS: '127.0.0.1' });
    const owner = await createUser(t.db);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notifications/push/key',
      headers: await authHeader(t.app, owner.id),
    });
    expect(res.statusCode, res.body).toBe(200);
    publicKey = (res.json() as { publicKey: string }).publicKey;
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
  });

  /** A browser of `user` subscribed at a path of its own on the fake push service. */
  async function subscribe(user: CreatedUser, app: FastifyInstance = t.app): Promise<BrowserSubscription> {
    paths += 1;
    const subscription = browserSubscription(
      `${service.origin}/push/${paths}-${randomBytes(4).toString('hex')}`,
    );
    const res = await app.inject({
      method: 'POST',
      url: '/api/notifications/push/subscriptions',
      headers: await authHeader(app, user.id),
      payload: subscription,
    });
    expect(res.statusCode, res.body).toBe(204);
    return subscription;
  }
  const pathOf = (s: BrowserSubscription) => new URL(s.endpoint).pathname;
  const like = async (userId: string, postId: string) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/posts/likePost/${postId}`,
      headers: await authHeader(t.app, userId),
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const read = (s: BrowserSubscription, push: ReceivedPush): PushMessage =>
    JSON.parse(s.decrypt(push.body).toString('utf8')) as PushMessage;
  const entryOf = async (recipientId: string) => {
    const [row] = await t.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(eq(notifications.recipientId, recipientId));
    expect(row, `an entry for ${recipientId}`).toBeDefined();
    return row!.id;
  };

  /**
   * Proof that the pushes announced before now were decided: a push to someone else, caused after them,
   * has come, and the sender has nothing left (NOTIFYs arrive in commit order and are queued as heard).
   */
  async function settled(apps: FastifyInstance[] = [t.app]): Promise<void> {
    const owner = await createUser(t.db);
    const fan = await createUser(t.db);
    const browser = await subscribe(owner);
    const post = await createPost(t.db, owner.id);
    await like(fan.id, post.id);
    await service.waitFor(pathOf(browser));
    await Promise.all(apps.map((app) => app.webPush.sender.idle()));
  }

  it('sends a like, encrypted for the browser, signed with the VAPID key, kept 48 h, one topic per entry', async () => {
    const owner = await createUser(t.db, { username: 'mariposa_owner' });
    const fans = [
      await createUser(t.db, { username: 'tom_first' }),
      await createUser(t.db, { username: 'ivy_second' }),
      await createUser(t.db, { username: 'ozzy_third' }),
    ];
    // A located post with a caption naming a place: none of it may reach a lock screen.
    const post = await createPost(t.db, owner.id, {
      latitude: 51.501_234_5,
      longitude: -0.141_987_6,
      caption: 'Sunning on the wall of 12 Birdcage Walk',
      catName: 'Pumpkin',
    });
    const browser = await subscribe(owner);

    await like(fans[0]!.id, post.id);
    const first = await service.waitFor(pathOf(browser));
    const entryId = await entryOf(owner.id);
    expect(first.headers.ttl).toBe('172800');
    expect(first.headers['content-encoding']).toBe('aes128gcm');
    expect(first.headers.urgency).toBe('normal');
    expect(first.headers.topic).toBe(entryId.replaceAll('-', ''));
    const vapid = verifyVapid(first.headers.authorization, browser.endpoint);
    expect(vapid.publicKey).toBe(publicKey);
    expect(vapid.claims.aud).toBe(service.origin);
    expect(vapid.claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(vapid.claims.sub).toMatch(/^(mailto:|https:)/);

    const text = browser.decrypt(first.body).toString('utf8');
    expect(JSON.parse(text)).toEqual({
      title: 'tom_first liked your picture',
      body: '',
      url: `/posts/${post.id}`,
      tag: `notification-${entryId}`,
      icon: '/icons/notification-192.png',
    });
    expect(text).not.toMatch(/latitude|longitude|51\.50|0\.141|Birdcage/i);

    // Later likes of the same window change the same entry: the same topic and tag replace the first.
    await like(fans[1]!.id, post.id);
    const second = read(browser, await service.waitFor(pathOf(browser), 2));
    expect(second.title).toBe('ivy_second and tom_first liked your picture');
    await like(fans[2]!.id, post.id);
    const thirdPush = await service.waitFor(pathOf(browser), 3);
    expect(read(browser, thirdPush)).toMatchObject({
      title: 'ozzy_third and 2 others liked your picture',
      tag: `notification-${entryId}`,
    });
    expect(thirdPush.headers.topic).toBe(entryId.replaceAll('-', ''));
  });

  it('sends a comment with a short excerpt of it, linking to the comment', async () => {
    const owner = await createUser(t.db);
    const commenter = await createUser(t.db, { username: 'chatty_cat' });
    const post = await createPost(t.db, owner.id);
    const browser = await subscribe(owner);
    const long = `${'Such a lovely ginger cat, I see it every morning by the bakery. '.repeat(6)}END`;
    const [comment] = await t.db
      .insert(comments)
      .values({ postId: post.id, userId: commenter.id, body: long })
      .returning();
    await addNotification(t.db, {
      recipientId: owner.id,
      type: 'comment',
      actorId: commenter.id,
      postId: post.id,
      commentId: comment!.id,
    });
    const message = read(browser, await service.waitFor(pathOf(browser)));
    expect(message.title).toBe('chatty_cat commented on your picture');
    expect(message.body.length).toBeLessThanOrEqual(PUSH_EXCERPT_LENGTH);
    expect(message.body).toMatch(/^Such a lovely ginger cat, I see it every morning.*…$/);
    expect(message.body).not.toContain('END');
    expect(message.url).toBe(`/posts/${post.id}#comment-${comment!.id}`);
  });

  it("sends a cat's new sighting to its follower: who spotted which cat, the post to open, no place", async () => {
    const carer = await createUser(t.db);
    const follower = await createUser(t.db);
    const spotter = await createUser(t.db, { username: 'mariposa_spots' });
    const cat = await createCat(t.db, carer.id, { name: 'Luna' });
    await t.db.insert(catFollows).values({ catId: cat.id, userId: follower.id });
    const browser = await subscribe(follower);
    // Linked from the start and shown exactly where it was taken: the push still carries no place.
    const post = await createPost(t.db, spotter.id, {
      catId: cat.id,
      latitude: 51.51234,
      longitude: -0.12345,
      showLocation: true,
    });
    const push = await service.waitFor(pathOf(browser));
    const message = read(browser, push);
    expect(message).toMatchObject({
      title: 'mariposa_spots spotted Luna',
      body: '',
      url: `/posts/${post.id}`,
    });
    const plain = browser.decrypt(push.body).toString('utf8');
    expect(plain).not.toMatch(/latitude|longitude|51\.51|0\.123/);
  });

  it('sends a cat missing near the neighbour, then found: which cat, its page to open, never a place', async () => {
    const carer = await createUser(t.db, { username: 'luna_keeper' });
    const neighbour = await createUser(t.db);
    const lastSeen = { latitude: 43.36123, longitude: -5.84987 };
    const call = async (userId: string, method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) => {
      const res = await t.app.inject({
        method,
        url,
        headers: await authHeader(t.app, userId),
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    };
    await call(neighbour.id, 'PUT', '/api/profile/settings/home-area', {
      homeArea: { latitude: 43.37, longitude: -5.85 },
    });
    const browser = await subscribe(neighbour);
    const cat = await createCat(t.db, carer.id, { name: 'Luna' });
    await call(carer.id, 'POST', `/api/cats/${cat.id}/missing`, {
      lastSeenAt: new Date(Date.now() - 60_000).toISOString(),
      place: lastSeen,
      note: 'Last seen at calle Uría 12.',
      contact: 'photo',
    });
    const missing = await service.waitFor(pathOf(browser));
    expect(read(browser, missing)).toMatchObject({
      title: 'Luna is missing near you',
      body: 'Open the alert to see where and when they were last seen.',
      url: `/cats/${cat.id}`,
    });
    await call(carer.id, 'DELETE', `/api/cats/${cat.id}/missing`);
    await service.waitFor(pathOf(browser), 2);
    const pushes = service.to(pathOf(browser));
    expect(read(browser, pushes[1]!)).toMatchObject({ title: 'Luna is back home', url: `/cats/${cat.id}` });
    for (const push of pushes) {
      const plain = browser.decrypt(push.body).toString('utf8');
      expect(plain).not.toMatch(/latitude|longitude|43\.3|5\.8|Uría/);
    }
  });

  it('pushes one cat missing, and one back home, to a neighbour a day, however often the alert cycles', async () => {
    const carer = await createUser(t.db);
    const neighbour = await createUser(t.db);
    const call = async (userId: string, method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) => {
      const res = await t.app.inject({
        method,
        url,
        headers: await authHeader(t.app, userId),
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    };
    await call(neighbour.id, 'PUT', '/api/profile/settings/home-area', {
      homeArea: { latitude: 40.42, longitude: -3.7 },
    });
    const browser = await subscribe(neighbour);
    const cat = await createCat(t.db, carer.id, { name: 'Pimienta' });
    for (let i = 0; i < 5; i += 1) {
      await call(carer.id, 'POST', `/api/cats/${cat.id}/missing`, {
        lastSeenAt: new Date(Date.now() - 60_000).toISOString(),
        place: { latitude: 40.4201 + i * 0.001, longitude: -3.7003 },
        contact: 'report',
      });
      await call(carer.id, 'DELETE', `/api/cats/${cat.id}/missing`);
    }
    await service.waitFor(pathOf(browser), 2);
    await settled();
    // One of each, in either order: the two are sent after their own commits, side by side, and a push
    // service does not promise to deliver in order either (CI on PostgreSQL saw them swapped).
    const titles = service.to(pathOf(browser)).map((push) => read(browser, push).title);
    expect(titles.toSorted()).toEqual(['Pimienta is back home', 'Pimienta is missing near you']);
  });

  it('forgets a subscription the push service says is gone (410), keeps one that failed (500)', async () => {
    const owner = await createUser(t.db);
    const fan = await createUser(t.db);
    const post = await createPost(t.db, owner.id);
    const gone = await subscribe(owner);
    const broken = await subscribe(owner);
    service.answer(pathOf(gone), 410);
    service.answer(pathOf(broken), 500);
    await like(fan.id, post.id);
    await service.waitFor(pathOf(gone));
    await service.waitFor(pathOf(broken));
    await t.app.webPush.sender.idle();
    const left = await t.db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, owner.id));
    expect(left.map((s) => s.endpoint)).toEqual([broken.endpoint]);
    // And the cause went through: the entry is in the owner's notification centre.
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: await authHeader(t.app, owner.id),
    });
    expect((list.json() as { notifications: unknown[] }).notifications).toHaveLength(1);
  });

  it('sends nothing for a type whose push switch is off, and still lists the entry', async () => {
    const owner = await createUser(t.db);
    const fan = await createUser(t.db);
    const post = await createPost(t.db, owner.id);
    const browser = await subscribe(owner);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/notifications/preferences',
      headers: await authHeader(t.app, owner.id),
      payload: { preferences: { like: { inApp: true, push: false } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    await like(fan.id, post.id);
    await settled();
    expect(service.to(pathOf(browser))).toEqual([]);
    const count = await t.app.inject({
      method: 'GET',
      url: '/api/notifications/unread-count',
      headers: await authHeader(t.app, owner.id),
    });
    expect(count.json()).toEqual({ count: 1 });
  });

  it('sends nothing from someone blocked either way, and never names them in a later push', async () => {
    const owner = await createUser(t.db);
    const blocked = await createUser(t.db, { username: 'blocked_one' });
    const blocker = await createUser(t.db, { username: 'blocker_one' });
    const friend = await createUser(t.db, { username: 'friend_one' });
    const post = await createPost(t.db, owner.id);
    const browser = await subscribe(owner);
    // Their likes came before the blocks (after them, the post is not theirs to see).
    await like(blocked.id, post.id);
    await service.waitFor(pathOf(browser), 1);
    await like(blocker.id, post.id);
    await service.waitFor(pathOf(browser), 2);
    await t.db.insert(blocks).values([
      { blockerId: owner.id, blockedId: blocked.id },
      { blockerId: blocker.id, blockedId: owner.id },
    ]);
    for (const actor of [blocked, blocker]) {
      const [comment] = await t.db
        .insert(comments)
        .values({ postId: post.id, userId: actor.id, body: 'Hello' })
        .returning();
      const told = await addNotification(t.db, {
        recipientId: owner.id,
        type: 'comment',
        actorId: actor.id,
        postId: post.id,
        commentId: comment!.id,
      });
      expect(told).toBeNull();
    }

    // Their likes are still in this window's entry, but its push names the friend alone.
    await like(friend.id, post.id);
    const message = read(browser, await service.waitFor(pathOf(browser), 3));
    expect(message.title).toBe('friend_one liked your picture');
    await settled();
    expect(service.to(pathOf(browser))).toHaveLength(3);
  });

  it('claims nothing, so writes nothing, for a recipient without a subscription', async () => {
    const owner = await createUser(t.db);
    const fan = await createUser(t.db);
    const post = await createPost(t.db, owner.id);
    await like(fan.id, post.id);
    await settled();
    // No subscription: nothing was claimed, so nothing was written.
    const [entry] = await t.db
      .select({ pushSentSeq: notifications.pushSentSeq })
      .from(notifications)
      .where(eq(notifications.recipientId, owner.id));
    expect(entry).toEqual({ pushSentSeq: null });
  });

  it('sends each push once when two instances share the database', async () => {
    // A second instance: its own pool and listener on PostgreSQL; on PGlite, the same database in
    // this process (both instances hear each NOTIFY there too).
    const { app: other, close: closeOther } = await secondInstance(t, { poolSize: 4 });
    try {
      const otherKey = await other.inject({
        method: 'GET',
        url: '/api/notifications/push/key',
        headers: await authHeader(other, (await createUser(t.db)).id),
      });
      expect((otherKey.json() as { publicKey: string }).publicKey).toBe(publicKey);

      const owner = await createUser(t.db);
      const browser = await subscribe(owner, other);
      const fans = [await createUser(t.db), await createUser(t.db), await createUser(t.db)];
      const posts = [await createPost(t.db, owner.id), await createPost(t.db, owner.id)];
      // One like at a time, each awaited at the push service: a later like would move the entry on,
      // and an earlier event whose entry moved on is left to the later one (claimPush).
      let sent = 0;
      for (const post of posts) {
        for (const fan of fans) {
          await like(fan.id, post.id);
          sent += 1;
          await service.waitFor(pathOf(browser), sent);
        }
      }
      await settled([t.app, other]);
      expect(service.to(pathOf(browser))).toHaveLength(6);
    } finally {
      await closeOther();
    }
  });

  it('generates the VAPID keys once, into DATA_DIR (0600) on the embedded database, or the database on PostgreSQL', async () => {
    const again = await resolveVapidKeys(t.config, t.database);
    expect(again.publicKey).toBe(publicKey);
    const file = join(t.config.DATA_DIR, 'vapid.json');
    const stored = await t.db.select().from(webPushKeys);
    if (t.database.kind === 'postgres') {
      expect(stored.map((k) => k.publicKey)).toEqual([publicKey]);
      expect(existsSync(file)).toBe(false);
    } else {
      expect(stored).toEqual([]);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(again);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
  });

  it('saves a subscription per endpoint: saved again it moves to whoever saved it, ten per account at most', async () => {
    const first = await createUser(t.db);
    const second = await createUser(t.db);
    const endpointsOf = async (userId: string) =>
      (
        await t.db
          .select({ endpoint: pushSubscriptions.endpoint })
          .from(pushSubscriptions)
          .where(eq(pushSubscriptions.userId, userId))
      )
        .map((s) => s.endpoint)
        .sort();
    const shared = await subscribe(first);
    // Someone else signs in on the same browser and turns push on: the browser is theirs now.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/push/subscriptions',
      headers: await authHeader(t.app, second.id),
      payload: shared,
    });
    expect(again.statusCode, again.body).toBe(204);
    expect(await endpointsOf(first.id)).toEqual([]);
    expect(await endpointsOf(second.id)).toEqual([shared.endpoint]);

    const browsers = [];
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_USER; i += 1) browsers.push(await subscribe(second));
    // The eleventh browser pushed out the oldest: the shared one.
    expect(await endpointsOf(second.id)).toEqual(browsers.map((b) => b.endpoint).sort());

    // Each caller forgets only their own.
    const forget = async (userId: string, endpoint: string) => {
      const res = await t.app.inject({
        method: 'DELETE',
        url: '/api/notifications/push/subscriptions',
        headers: await authHeader(t.app, userId),
        payload: { endpoint },
      });
      expect(res.statusCode, res.body).toBe(204);
    };
    await forget(first.id, browsers[0]!.endpoint);
    expect(await endpointsOf(second.id)).toHaveLength(MAX_SUBSCRIPTIONS_PER_USER);
    await forget(second.id, browsers[0]!.endpoint);
    expect(await endpointsOf(second.id)).toEqual(
      browsers
        .slice(1)
        .map((b) => b.endpoint)
        .sort(),
    );
  });

  it('refuses the demo account, endpoints off the push services, and keys that are not push keys', async () => {
    const user = await createUser(t.db);
    const post = async (userId: string, payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/notifications/push/subscriptions',
        headers: await authHeader(t.app, userId),
        payload: payload as Record<string, unknown>,
      });
    const demo = await post(DEMO_USER_ID, browserSubscription(`${service.origin}/push/demo`));
    expect(demo.statusCode).toBe(403);
    expect(demo.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });

    for (const endpoint of [
      'https://169.254.169.254/latest/meta-data',
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com.evil.example/fcm/send/abc',
      'https://localhost:3000/api/profile/deleteUser/x',
    ]) {
      const res = await post(user.id, browserSubscription(endpoint));
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json()).toEqual({ message: PUSH_MESSAGES.endpointNotAllowed });
    }
    const good = browserSubscription(`${service.origin}/push/keys`);
    for (const keys of [
      { ...good.keys, p256dh: Buffer.alloc(65, 4).toString('base64url') },
      { ...good.keys, auth: randomBytes(8).toString('base64url') },
    ]) {
      const res = await post(user.id, { ...good, keys });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: PUSH_MESSAGES.badKeys });
    }
    const none = await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id));
    expect(none).toEqual([]);
  });

  it('removes the subscriptions with the account', async () => {
    const owner = await createUser(t.db);
    await subscribe(owner);
    await subscribe(owner);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/profile/deleteUser/${owner.id}`,
      headers: await authHeader(t.app, owner.id),
    });
    expect(res.statusCode, res.body).toBe(204);
    const left = await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, owner.id));
    expect(left).toEqual([]);
  });
});

describe('VAPID keys', () => {
  it('come from VAPID_* when set', async () => {
    const publicKey =
      'BIEY78IO3y0AAl567a8GYCivi7KLJBxwO6UfupYIuGXCjpDwPoxdTBeUENGx59n7mCM_1XvG7vXXvQSWhSqkqWQ';
    const t = await buildTestApp({
      VAPID_PUBLIC_KEY: publicKey,
      VAPID_PRIVATE_KEY: 'YedmDWsKNEKC8ACFLBEwcTJFH5eH1A6NpqCJkydGHcc',
    });
    try {
      const user = await createUser(t.db);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/notifications/push/key',
        headers: await authHeader(t.app, user.id),
      });
      expect(res.json()).toEqual({ publicKey });
      expect(await t.db.select().from(webPushKeys)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
