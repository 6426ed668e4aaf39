import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  MAP_MAX_ZOOM,
  type ExploreResponse,
  type Post,
} from '@cats/contracts';
import type { Database } from '../../src/db/client.ts';
import { buildTestApp, uniqueSuffix, type TestApp } from '../build-app.ts';
import { authHeader, createUser, type CreatedUser } from '../factories.ts';
import { multipartBody } from '../fixtures/images.ts';
import { injectStream, parseSse } from '../sse-client.ts';
import { signStreamTicket } from '../../src/modules/notifications/stream-ticket.ts';
import { issueMailToken } from '../../src/modules/mail/mail-tokens.service.ts';
import { exportsSettled } from '../hostile/support/exports.ts';
import { apiRoutes } from '../hostile/support/routes.ts';
import { appTables, changedTables, fullSnapshot, mediaFiles } from '../hostile/support/snapshot.ts';
import { moderationActions, reports } from '../../src/db/schema/index.ts';
import {
  addComment,
  call,
  createGroup,
  NO_RATE_LIMITS,
  smallJpeg,
  uploadPost,
} from '../hostile/support/world.ts';

/**
 * The authorisation matrix: every endpoint x {anonymous, expired token, another user, the demo user,
 * the owner}. Each cell asserts the status; a refused cell asserts that no row and no media file
 * changed, and a cell where someone other than the owner succeeds asserts that nothing of the owner's
 * changed (unless the action is meant to touch the owner's things, such as liking their post).
 * The matrix must name every route of the OpenAPI document, so a new endpoint fails here until it has
 * a row.
 */

const WHO = ['anonymous', 'expired', 'other', 'demo', 'owner'] as const;
type Who = (typeof WHO)[number];
/**
 * Staff callers (issue 27): a moderator and an admin who are not the owner. Only rows that name them
 * run them; on every other route they are members like 'other'.
 */
const STAFF = ['moderator', 'admin'] as const;
type Staff = (typeof STAFF)[number];
type Caller = Who | Staff;

const OWNER_PASSWORD = 'OwnerSecret123';

interface Person {
  user: CreatedUser;
  headers: Record<string, string>;
}

interface Ctx {
  t: TestApp;
  person(password?: string): Promise<Person>;
  /** A person with a role (issue 27). */
  staff(role: 'moderator' | 'admin', password?: string): Promise<Person>;
  post(by: Person): Promise<Post>;
  /** The refresh cookie of a fresh login. */
  refreshCookie(email: string, password: string): Promise<string>;
}

interface Scene {
  owner: Person;
  /** Ids whose rows belong to the owner: a non-owner's success must leave rows mentioning them alone. */
  ownerIds: string[];
  /** Staff callers get the request of 'other' (the rows that name them ignore the caller). */
  request(who: Who): InjectOptions | Promise<InjectOptions>;
}

type Writes = 'none' | 'own' | 'any';
interface Cell {
  status: number;
  /** What a non-owner's request may change; refusals default to 'none', successes to 'own'. */
  writes?: Writes;
}
type Expect = Record<Who, number | Cell> & Partial<Record<Staff, number | Cell>>;

interface Row {
  route: string;
  expect: Expect;
  scene(ctx: Ctx): Promise<Scene>;
  /** Tables a refusal may write (a wrong current password is recorded for throttling). */
  refusalMayWrite?: string[];
  /** The demo user's 403 here comes from ownership, not from the demo rule (its message differs). */
  demoRefusedAsStranger?: boolean;
  /**
   * The caller's credential is a stream ticket in the query, taken with their token (an expired one
   * for 'expired', none for 'anonymous'); the answer is a stream, read until its first events.
   */
  streamTicket?: boolean;
}

/** The usual shape: anonymous 401, expired 403 (refresh and retry), others as given. */
const guarded = (other: number | Cell, demo: number | Cell, owner: number): Expect => ({
  anonymous: 401,
  expired: 403,
  other,
  demo,
  owner,
});
const publicRoute = (status: number): Expect => ({
  anonymous: status,
  expired: status,
  other: status,
  demo: status,
  owner: status,
});

const json = (method: InjectOptions['method'], url: string, payload?: unknown): InjectOptions => ({
  method,
  url,
  ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
});

async function upload(
  method: 'POST' | 'PUT',
  url: string,
  seed: number,
  fields: Record<string, string> = {},
): Promise<InjectOptions> {
  const body = multipartBody(fields, { name: 'cat.jpg', type: 'image/jpeg', data: await smallJpeg(seed) });
  return { method, url, headers: body.headers, payload: body.payload };
}

let seed = 1000;

const ROWS: Row[] = [
  { route: 'GET /api/health', expect: publicRoute(200), scene: simple(() => json('GET', '/api/health')) },
  // Issue 29: a load balancer's readiness probe, public as liveness is; it names checks, never data.
  {
    route: 'GET /api/health/ready',
    expect: publicRoute(200),
    scene: simple(() => json('GET', '/api/health/ready')),
  },
  {
    route: 'GET /api/config/map',
    expect: publicRoute(200),
    scene: simple(() => json('GET', '/api/config/map')),
  },
  {
    route: 'POST /api/signup',
    expect: publicRoute(201),
    scene: simple(() => {
      const id = uniqueSuffix();
      return json('POST', '/api/signup', {
        username: `m_${id}`,
        email: `m_${id}@example.com`,
        password: 'Whiskers123',
      });
    }),
  },
  {
    route: 'POST /api/login/suspension',
    // Issue 27: a suspended owner's credentials decide, whatever bearer token comes along.
    expect: publicRoute(200),
    scene: withSuspendedOwner((_actionId, credentials) => json('POST', '/api/login/suspension', credentials)),
  },
  {
    route: 'POST /api/login/suspension/appeal',
    // Each caller appeals a decision of its own (one appeal per decision), with the owner's credentials.
    expect: {
      anonymous: { status: 201, writes: 'any' },
      expired: { status: 201, writes: 'any' },
      other: { status: 201, writes: 'any' },
      demo: { status: 201, writes: 'any' },
      owner: 201,
    },
    scene: withSuspendedOwner((actionId, credentials) =>
      json('POST', '/api/login/suspension/appeal', { ...credentials, actionId, body: 'Please look again.' }),
    ),
  },
  {
    route: 'POST /api/login',
    // Credentials decide, whatever bearer token comes along.
    expect: publicRoute(200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      return {
        owner,
        ownerIds: [],
        request: () => json('POST', '/api/login', { email: owner.user.email, password: OWNER_PASSWORD }),
      };
    },
  },
  {
    route: 'POST /api/password/forgot',
    // Issue 29: anyone may ask for a link to an address; it goes to that mailbox only, and the answer is
    // the same for every address. The link's token, not a bearer token, is what resets.
    expect: {
      anonymous: { status: 202, writes: 'any' },
      expired: { status: 202, writes: 'any' },
      other: { status: 202, writes: 'any' },
      demo: { status: 202, writes: 'any' },
      owner: 202,
    },
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      return {
        owner,
        ownerIds: [owner.user.id],
        request: async () => {
          // The previous cell's mail work runs after its answer: let it finish before the snapshot.
          await ctx.t.app.mail.settled();
          return json('POST', '/api/password/forgot', { email: owner.user.email });
        },
      };
    },
  },
  {
    route: 'POST /api/password/reset',
    // Whoever holds a live token from the owner's mailbox sets the owner's password: each caller gets
    // a token of its own here, whatever bearer token comes along.
    expect: {
      anonymous: { status: 200, writes: 'any' },
      expired: { status: 200, writes: 'any' },
      other: { status: 200, writes: 'any' },
      demo: { status: 200, writes: 'any' },
      owner: 200,
    },
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      return {
        owner,
        ownerIds: [owner.user.id],
        request: async () => {
          await ctx.t.app.mail.settled();
          // A link per caller: more than the mail throttle allows an hour, which is not under test here.
          await ctx.t.db.execute(sql`delete from mail_sends where user_id = ${owner.user.id}`);
          const issued = await issueMailToken(ctx.t.db, {
            userId: owner.user.id,
            address: owner.user.email,
            purpose: 'password_reset',
            newEmail: null,
            ttlMinutes: 30,
          });
          if (!('token' in issued)) throw new Error('throttled');
          return json('POST', '/api/password/reset', { token: issued.token, password: OWNER_PASSWORD });
        },
      };
    },
  },
  {
    route: 'POST /api/email/confirm',
    // The token from the link mailed to the new address is the credential, as for a reset.
    expect: {
      anonymous: { status: 200, writes: 'any' },
      expired: { status: 200, writes: 'any' },
      other: { status: 200, writes: 'any' },
      demo: { status: 200, writes: 'any' },
      owner: 200,
    },
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      return {
        owner,
        ownerIds: [owner.user.id],
        request: async () => {
          await ctx.t.app.mail.settled();
          // A link per caller: more than the mail throttle allows an hour, which is not under test here.
          await ctx.t.db.execute(sql`delete from mail_sends where user_id = ${owner.user.id}`);
          const email = `moved_${uniqueSuffix()}@example.com`;
          const issued = await issueMailToken(ctx.t.db, {
            userId: owner.user.id,
            address: email,
            purpose: 'email_change',
            newEmail: email,
            ttlMinutes: 60,
          });
          if (!('token' in issued)) throw new Error('throttled');
          return json('POST', '/api/email/confirm', { token: issued.token });
        },
      };
    },
  },
  {
    route: 'GET /api/refresh',
    // Cookie-based: anonymous has none (401), 'expired' holds a rotated one (403), each other holder
    // gets only their own session back.
    expect: {
      anonymous: 401,
      expired: 403,
      other: { status: 200, writes: 'own' },
      demo: { status: 200, writes: 'own' },
      owner: 200,
    },
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const other = await ctx.person();
      // A session that was logged out: its cookie is revoked.
      const stale = await ctx.refreshCookie(owner.user.email, OWNER_PASSWORD);
      await ctx.t.app.inject({ method: 'GET', url: '/api/logout', cookies: { jwt: stale } });
      const cookies: Partial<Record<Who, string>> = {
        expired: stale,
        other: await ctx.refreshCookie(other.user.email, 'Whiskers123'),
        demo: await ctx.refreshCookie('demo@neighbourhood.cats', 'DemoCats123'),
        owner: await ctx.refreshCookie(owner.user.email, OWNER_PASSWORD),
      };
      return {
        owner,
        ownerIds: [owner.user.id],
        request: (who) => ({
          method: 'GET',
          url: '/api/refresh',
          ...(cookies[who] ? { cookies: { jwt: cookies[who] } } : {}),
        }),
      };
    },
  },
  {
    route: 'GET /api/logout',
    expect: {
      anonymous: 204,
      expired: 204,
      other: { status: 204, writes: 'own' },
      demo: { status: 204, writes: 'own' },
      owner: 204,
    },
    scene: simple(() => json('GET', '/api/logout')),
  },
  {
    route: 'GET /api/feed/:page',
    expect: guarded(200, 200, 200),
    scene: withPost(() => json('GET', '/api/feed/1')),
  },
  {
    route: 'GET /api/profile/getPosts',
    expect: guarded(200, 200, 200),
    scene: withPost((_p, owner) => json('GET', `/api/profile/getPosts?user=${owner.user.id}&pagenum=1`)),
  },
  {
    route: 'GET /api/profile/getMyProfile',
    expect: guarded(200, 200, 200),
    scene: simple(() => json('GET', '/api/profile/getMyProfile')),
  },
  {
    route: 'GET /api/profile/getUserProfile/:userid',
    expect: guarded(200, 200, 200),
    scene: withPost((_p, owner) => json('GET', `/api/profile/getUserProfile/${owner.user.id}`)),
  },
  {
    route: 'GET /api/profile/blockedUsers',
    expect: guarded(200, 200, 200),
    scene: simple(() => json('GET', '/api/profile/blockedUsers')),
  },
  {
    route: 'GET /api/posts/:postId',
    expect: guarded(200, 200, 200),
    scene: withPost((p) => json('GET', `/api/posts/${p._id}`)),
  },
  {
    route: 'GET /api/posts/:postId/history',
    // Whoever can see the post reads its versions.
    expect: guarded(200, 200, 200),
    scene: withPost((p) => json('GET', `/api/posts/${p._id}/history`)),
  },
  {
    route: 'GET /api/profile/hiddenPosts',
    expect: guarded(200, 200, 200),
    scene: simple(() => json('GET', '/api/profile/hiddenPosts')),
  },
  {
    route: 'GET /api/posts/getComments/:postId',
    expect: guarded(200, 200, 200),
    scene: withPost((p) => json('GET', `/api/posts/getComments/${p._id}`)),
  },
  {
    route: 'GET /api/posts/:postId/likes',
    expect: guarded(200, 200, 200),
    scene: withPost((p) => json('GET', `/api/posts/${p._id}/likes`)),
  },
  {
    route: 'GET /api/explore',
    expect: guarded(200, 200, 200),
    scene: withPost(() => json('GET', '/api/explore')),
  },
  {
    route: 'GET /api/explore/clusters/:clusterId/posts',
    expect: guarded(200, 200, 200),
    scene: async (ctx) => {
      // Two posts on one spot: a cluster that no zoom splits, whose posts come from this route.
      const owner = await ctx.person(OWNER_PASSWORD);
      const [first, second] = [await ctx.post(owner), await ctx.post(owner)];
      const map = await call(
        ctx.t.app,
        owner.headers,
        'GET',
        `/api/explore?west=-0.13&south=51.49&east=-0.11&north=51.51&zoom=${MAP_MAX_ZOOM}`,
      );
      const cluster = (map.json() as ExploreResponse).clusters?.find((c) => c.count >= 2);
      expect(cluster, map.body).toBeDefined();
      return {
        owner,
        ownerIds: [owner.user.id, first._id, second._id],
        request: () => json('GET', `/api/explore/clusters/${encodeURIComponent(cluster!.id)}/posts`),
      };
    },
  },
  {
    route: 'GET /api/explore/posts',
    expect: guarded(200, 200, 200),
    scene: withPost((p) => json('GET', `/api/explore/posts?ids=${p._id}`)),
  },
  {
    route: 'GET /api/groups',
    expect: guarded(200, 200, 200),
    scene: simple(() => json('GET', '/api/groups')),
  },
  {
    route: 'GET /api/groups/requests',
    // Each caller reads only their own pending requests (issue 28).
    expect: guarded(200, 200, 200),
    scene: simple(() => json('GET', '/api/groups/requests')),
  },
  {
    route: 'GET /api/groups/:groupId',
    expect: guarded(404, 404, 200),
    scene: withGroup((g) => json('GET', `/api/groups/${g._id}`)),
  },
  {
    route: 'GET /api/groups/:groupId/posts',
    expect: guarded(404, 404, 200),
    scene: withGroup((g) => json('GET', `/api/groups/${g._id}/posts`)),
  },
  {
    route: 'GET /api/groups/:groupId/map',
    expect: guarded(404, 404, 200),
    scene: withGroup((g) => json('GET', `/api/groups/${g._id}/map`)),
  },

  // Writes on one's own account: nobody can name another account, so 'other' acts on their own.
  {
    route: 'POST /api/posts/createPost',
    expect: guarded(201, 403, 201),
    scene: simple(() => upload('POST', '/api/posts/createPost', (seed += 1), { comment: 'matrix' })),
  },
  {
    route: 'PUT /api/profile/updatePicture',
    expect: guarded(200, 403, 200),
    scene: simple(() => upload('PUT', '/api/profile/updatePicture', (seed += 1))),
  },
  ...(['username', 'email', 'password'] as const).map((field): Row => ({
    route: `PUT /api/profile/settings/${field}`,
    // The owner's current password does not open another account. An email change only sends a
    // confirmation link (202, issue 29).
    expect: guarded(400, 403, field === 'email' ? 202 : 200),
    refusalMayWrite: ['login_failures'],
    scene: simple(() => {
      const id = uniqueSuffix();
      const value = { username: `n_${id}`, email: `n_${id}@example.com`, password: 'Whiskers999' }[field];
      return json('PUT', `/api/profile/settings/${field}`, {
        [field === 'password' ? 'newPassword' : field]: value,
        currentPassword: OWNER_PASSWORD,
      });
    }),
  })),
  {
    route: 'PUT /api/profile/settings/location-privacy',
    expect: guarded({ status: 200, writes: 'own' }, 403, 200),
    scene: simple(() => json('PUT', '/api/profile/settings/location-privacy', { exactPublicLocation: true })),
  },
  {
    route: 'PUT /api/profile/settings/alt-text-reminder',
    expect: guarded({ status: 200, writes: 'own' }, 403, 200),
    scene: simple(() => json('PUT', '/api/profile/settings/alt-text-reminder', { altTextReminder: false })),
  },
  {
    route: 'DELETE /api/profile/deleteUser/:userId',
    expect: guarded(403, 403, 204),
    scene: simple((owner) => json('DELETE', `/api/profile/deleteUser/${owner.user.id}`)),
  },

  // The owner's post.
  {
    route: 'PUT /api/posts/likePost/:postId',
    expect: guarded({ status: 200, writes: 'any' }, { status: 200, writes: 'any' }, 200),
    scene: withPost((p) => json('PUT', `/api/posts/likePost/${p._id}`, {})),
  },
  {
    route: 'POST /api/posts/createComment/:postId',
    expect: guarded({ status: 200, writes: 'any' }, 403, 200),
    scene: withPost((p) => json('POST', `/api/posts/createComment/${p._id}`, { newComment: 'Nice cat' })),
  },
  {
    route: 'PUT /api/posts/toggleLocation/:postId',
    expect: guarded(403, 403, 200),
    demoRefusedAsStranger: true,
    scene: withPost((p) => json('PUT', `/api/posts/toggleLocation/${p._id}`, {})),
  },
  {
    route: 'DELETE /api/posts/:postId',
    // Others who see the post learn it is not theirs; the demo user is refused as the demo user.
    expect: guarded(403, 403, 200),
    scene: withPost((p) => json('DELETE', `/api/posts/${p._id}`)),
  },
  {
    route: 'PATCH /api/posts/:postId',
    // Others who see the post learn it is not theirs; the demo user is refused as the demo user. The
    // edit moves the post too (issue 26): a refused one leaves its place, and the map, alone.
    expect: guarded(403, 403, 200),
    scene: withPost((p) =>
      json('PATCH', `/api/posts/${p._id}`, {
        caption: 'Edited',
        altText: 'A cat',
        latitude: 51.4987654,
        longitude: -0.1412345,
      }),
    ),
  },
  {
    route: 'GET /api/posts/trash',
    // Everyone has a trash of their own: others see theirs (empty), never the owner's.
    expect: guarded({ status: 200, writes: 'none' }, { status: 200, writes: 'none' }, 200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const post = await ctx.post(owner);
      await ctx.t.app.inject({ ...json('DELETE', `/api/posts/${post._id}`), headers: owner.headers });
      return { owner, ownerIds: [owner.user.id, post._id], request: () => json('GET', '/api/posts/trash') };
    },
  },
  {
    route: 'POST /api/posts/:postId/restore',
    // Not in the caller's trash is the same 404 as unknown: nobody learns what another user deleted.
    expect: guarded(404, 403, 200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const post = await ctx.post(owner);
      const trashed = await ctx.t.app.inject({
        ...json('DELETE', `/api/posts/${post._id}`),
        headers: owner.headers,
      });
      expect(trashed.statusCode).toBe(200);
      return {
        owner,
        ownerIds: [owner.user.id, post._id],
        request: () => json('POST', `/api/posts/${post._id}/restore`),
      };
    },
  },
  {
    route: 'PUT /api/posts/:postId/groups',
    expect: guarded(403, 403, 200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const post = await ctx.post(owner);
      const group = await createGroup(ctx.t.app, owner.headers, 'Mine');
      return {
        owner,
        ownerIds: [owner.user.id, post._id, group._id],
        request: () => json('PUT', `/api/posts/${post._id}/groups`, { groupIds: [group._id] }),
      };
    },
  },
  {
    route: 'PUT /api/posts/hidePost/:postId',
    // Hiding is per viewer: the owner here is anyone hiding a neighbour's post.
    expect: guarded({ status: 200, writes: 'own' }, 403, 200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const post = await ctx.post(await ctx.person());
      return {
        owner,
        ownerIds: [owner.user.id],
        request: () => json('PUT', `/api/posts/hidePost/${post._id}`, {}),
      };
    },
  },
  {
    route: 'DELETE /api/posts/hidePost/:postId',
    // The owner hid a neighbour's post; unhiding a post one never hid changes nothing and is fine.
    expect: guarded({ status: 200, writes: 'none' }, 403, 200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const post = await ctx.post(await ctx.person());
      await call(ctx.t.app, owner.headers, 'PUT', `/api/posts/hidePost/${post._id}`, {});
      return {
        owner,
        ownerIds: [owner.user.id],
        request: () => json('DELETE', `/api/posts/hidePost/${post._id}`),
      };
    },
  },
  {
    route: 'DELETE /api/posts/comments/:commentId',
    // The owner wrote the comment on a neighbour's post.
    expect: guarded(403, 403, 200),
    demoRefusedAsStranger: true,
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const post = await ctx.post(await ctx.person());
      const comment = await addComment(ctx.t.app, owner.headers, post._id, 'Mine to delete');
      return {
        owner,
        ownerIds: [owner.user.id, comment],
        request: () => json('DELETE', `/api/posts/comments/${comment}`),
      };
    },
  },
  {
    route: 'PUT /api/profile/blockUser/',
    expect: guarded({ status: 200, writes: 'own' }, 403, 200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const target = await ctx.person();
      return {
        owner,
        ownerIds: [owner.user.id],
        request: () => json('PUT', '/api/profile/blockUser/', { blockedUser: { _id: target.user.id } }),
      };
    },
  },
  {
    route: 'DELETE /api/profile/blockUser/:userId',
    // Unblocking someone one never blocked changes nothing and is fine.
    expect: guarded({ status: 200, writes: 'none' }, 403, 200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const target = await ctx.person();
      await call(ctx.t.app, owner.headers, 'PUT', '/api/profile/blockUser/', {
        blockedUser: { _id: target.user.id },
      });
      return {
        owner,
        ownerIds: [owner.user.id],
        request: () => json('DELETE', `/api/profile/blockUser/${target.user.id}`),
      };
    },
  },

  {
    route: 'POST /api/reports',
    // Issue 27: anyone but the demo reports the owner's post (a report naming the owner, and a hide for
    // the reporter); the owner cannot report their own post.
    expect: guarded({ status: 201, writes: 'any' }, 403, 403),
    scene: withPost((post) =>
      json('POST', '/api/reports', { targetType: 'post', targetId: post._id, reason: 'spam' }),
    ),
  },

  // Groups: the owner's group.
  {
    route: 'POST /api/groups/createGroup',
    expect: guarded({ status: 200, writes: 'own' }, 403, 200),
    scene: simple(() => json('POST', '/api/groups/createGroup', { submitData: 'Our street' })),
  },
  {
    route: 'POST /api/groups/joinGroup',
    // The owner here is anyone asking to join a neighbour's group.
    expect: guarded({ status: 200, writes: 'any' }, 403, 200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const group = await createGroup(ctx.t.app, (await ctx.person()).headers, 'Their street');
      return {
        owner,
        ownerIds: [owner.user.id],
        request: () => json('POST', '/api/groups/joinGroup', { submitData: group.code }),
      };
    },
  },
  ...(['accept', 'decline'] as const).map((answer): Row => ({
    route: `POST /api/groups/:groupId/requests/:userId/${answer}`,
    expect: guarded(404, 403, 200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const group = await createGroup(ctx.t.app, owner.headers, 'Mine');
      const asker = await ctx.person();
      await call(ctx.t.app, asker.headers, 'POST', '/api/groups/joinGroup', { submitData: group.code });
      return {
        owner,
        ownerIds: [owner.user.id, group._id],
        request: () => json('POST', `/api/groups/${group._id}/requests/${asker.user.id}/${answer}`),
      };
    },
  })),
  {
    route: 'DELETE /api/groups/:groupId/members/:userId',
    expect: guarded(404, 403, 200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const group = await createGroup(ctx.t.app, owner.headers, 'Mine');
      const member = await ctx.person();
      await call(ctx.t.app, member.headers, 'POST', '/api/groups/joinGroup', { submitData: group.code });
      await call(
        ctx.t.app,
        owner.headers,
        'POST',
        `/api/groups/${group._id}/requests/${member.user.id}/accept`,
      );
      return {
        owner,
        ownerIds: [owner.user.id, group._id],
        request: () => json('DELETE', `/api/groups/${group._id}/members/${member.user.id}`),
      };
    },
  },
  {
    route: 'DELETE /api/groups/:groupId/request',
    // The owner here is the one who asked to join (issue 28): only they can withdraw their request;
    // anyone else has no request there to cancel.
    expect: guarded(404, 403, 200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const group = await createGroup(ctx.t.app, (await ctx.person()).headers, 'Their street');
      await call(ctx.t.app, owner.headers, 'POST', '/api/groups/joinGroup', { submitData: group.code });
      return {
        owner,
        ownerIds: [owner.user.id, group._id],
        request: () => json('DELETE', `/api/groups/${group._id}/request`),
      };
    },
  },
  {
    route: 'POST /api/groups/:groupId/code',
    expect: guarded(404, 403, 200),
    scene: withGroup((g) => json('POST', `/api/groups/${g._id}/code`)),
  },
  {
    route: 'DELETE /api/groups/:groupId',
    expect: guarded(404, 403, 200),
    scene: withGroup((g) => json('DELETE', `/api/groups/${g._id}`)),
  },
  {
    route: 'POST /api/profile/export',
    // Anyone signed in may export their own data (the other user gets an export of their own); the
    // demo may not. Each request first waits for the exports under way, whose files would otherwise
    // appear during the next cell's "nothing changed" check.
    expect: guarded(202, 403, 202),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      await ctx.post(owner);
      return {
        owner,
        ownerIds: [owner.user.id],
        request: async () => {
          await exportsSettled(ctx.t.db);
          return json('POST', '/api/profile/export');
        },
      };
    },
  },
  {
    route: 'GET /api/profile/export',
    expect: guarded(200, 200, 200),
    scene: async (ctx) => {
      await exportsSettled(ctx.t.db);
      return simple(() => json('GET', '/api/profile/export'))(ctx);
    },
  },
  {
    route: 'GET /api/profile/export/download',
    // The caller's own export only: another user's is the same 404 as none.
    expect: guarded(404, 404, 200),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      await ctx.post(owner);
      await exportsSettled(ctx.t.db);
      const started = await call(ctx.t.app, owner.headers, 'POST', '/api/profile/export');
      expect(started.statusCode, started.body).toBe(202);
      await exportsSettled(ctx.t.db);
      return { owner, ownerIds: [owner.user.id], request: () => json('GET', '/api/profile/export/download') };
    },
  },
  {
    route: 'GET /api/notifications',
    expect: guarded(200, 200, 200),
    scene: withNotification(() => json('GET', '/api/notifications')),
  },
  {
    route: 'GET /api/notifications/unread-count',
    expect: guarded(200, 200, 200),
    scene: withNotification(() => json('GET', '/api/notifications/unread-count')),
  },
  {
    // Each caller marks their own entries: another user's call leaves the owner's unread.
    route: 'POST /api/notifications/read',
    expect: guarded(200, 403, 200),
    scene: withNotification(() => json('POST', '/api/notifications/read', {})),
  },
  {
    route: 'POST /api/notifications/stream-ticket',
    // Each caller gets a ticket for their own stream; taking one writes nothing.
    expect: guarded({ status: 200, writes: 'none' }, { status: 200, writes: 'none' }, 200),
    scene: simple(() => json('POST', '/api/notifications/stream-ticket')),
  },
  {
    // Each ticket opens its own user's stream: the owner's replays their unread like, another user's
    // and the demo's their own (nothing of the owner's). No ticket, or an expired one: 401. Opening
    // records the use of the caller's own ticket (single-use, issue 46), and nothing of the owner's.
    route: 'GET /api/notifications/stream',
    expect: {
      anonymous: 401,
      expired: 401,
      other: { status: 200, writes: 'own' },
      demo: { status: 200, writes: 'own' },
      owner: 200,
    },
    streamTicket: true,
    scene: withNotification(() => json('GET', '/api/notifications/stream?lastEventId=0')),
  },
  {
    route: 'GET /api/notifications/preferences',
    expect: guarded(200, 200, 200),
    scene: simple(() => json('GET', '/api/notifications/preferences')),
  },
  {
    route: 'PUT /api/notifications/preferences',
    expect: guarded(200, 403, 200),
    scene: simple(() =>
      json('PUT', '/api/notifications/preferences', { preferences: { like: { inApp: false, push: true } } }),
    ),
  },
  {
    route: 'GET /api/notifications/push/key',
    expect: guarded(200, 200, 200),
    scene: simple(() => json('GET', '/api/notifications/push/key')),
  },
  {
    // Each caller subscribes a browser of their own; the demo may not.
    route: 'POST /api/notifications/push/subscriptions',
    expect: guarded(204, 403, 204),
    scene: simple(() => json('POST', '/api/notifications/push/subscriptions', pushSubscription())),
  },
  {
    // Another user's call with the owner's endpoint forgets nothing of the owner's.
    route: 'DELETE /api/notifications/push/subscriptions',
    expect: guarded(204, 403, 204),
    scene: async (ctx) => {
      const owner = await ctx.person(OWNER_PASSWORD);
      const subscription = pushSubscription();
      const saved = await call(
        ctx.t.app,
        owner.headers,
        'POST',
        '/api/notifications/push/subscriptions',
        subscription,
      );
      expect(saved.statusCode, saved.body).toBe(204);
      return {
        owner,
        ownerIds: [owner.user.id],
        request: () =>
          json('DELETE', '/api/notifications/push/subscriptions', { endpoint: subscription.endpoint }),
      };
    },
  },

  // Cats (issue 26): the owner created the cat (its caretaker) from one of their posts.
  {
    route: 'POST /api/cats',
    // Anyone signed in but the demo creates a cat of their own.
    expect: guarded(201, 403, 201),
    scene: simple(() => json('POST', '/api/cats', { name: 'Matrix' })),
  },
  {
    route: 'GET /api/cats',
    expect: guarded(200, 200, 200),
    scene: withCat(() => json('GET', '/api/cats?q=matrix&near=51.5,-0.12')),
  },
  {
    // Reads only; the demo may ask too (Spot shows it the suggestions, then refuses the upload).
    route: 'GET /api/cats/suggestions',
    expect: guarded(200, 200, 200),
    scene: withCat(() => json('GET', '/api/cats/suggestions?near=51.5,-0.12')),
  },
  {
    route: 'GET /api/cats/:catId',
    expect: guarded(200, 200, 200),
    scene: withCat((cat) => json('GET', `/api/cats/${cat}`)),
  },
  {
    route: 'GET /api/cats/:catId/sightings',
    expect: guarded(200, 200, 200),
    scene: withCat((cat) => json('GET', `/api/cats/${cat}/sightings`)),
  },
  {
    route: 'GET /api/cats/:catId/map',
    expect: guarded(200, 200, 200),
    scene: withCat((cat) => json('GET', `/api/cats/${cat}/map`)),
  },
  {
    route: 'PATCH /api/cats/:catId',
    // Caretakers only; the demo account is refused as the demo account.
    expect: guarded(403, 403, 200),
    scene: withCat((cat) =>
      json('PATCH', `/api/cats/${cat}`, { name: 'Renamed', home: { latitude: 51.5, longitude: -0.1 } }),
    ),
  },
  {
    route: 'PUT /api/posts/:postId/cat',
    // Only the post's author says which cat it shows.
    expect: guarded(403, 403, 200),
    scene: withCat((_cat, post) => json('PUT', `/api/posts/${post}/cat`, { catId: null })),
  },
  {
    route: 'PUT /api/cats/:catId/follow',
    // Anyone but the demo follows the owner's cat: a row of theirs about it.
    expect: guarded({ status: 200, writes: 'any' }, 403, 200),
    scene: withCat((cat) => json('PUT', `/api/cats/${cat}/follow`)),
  },
  {
    route: 'DELETE /api/cats/:catId/follow',
    // The owner follows their cat; another's unfollow touches only their own (absent) follow.
    expect: guarded({ status: 200, writes: 'none' }, 403, 200),
    scene: async (ctx) => {
      const scene = await withCat((cat) => json('DELETE', `/api/cats/${cat}/follow`))(ctx);
      const followed = await call(
        ctx.t.app,
        scene.owner.headers,
        'PUT',
        `/api/cats/${scene.ownerIds[2]}/follow`,
      );
      expect(followed.statusCode, followed.body).toBe(200);
      return scene;
    },
  },
  {
    route: 'PUT /api/cats/:catId/caretakers/:userId',
    expect: guarded(403, 403, 200),
    scene: async (ctx) => {
      const helper = await ctx.person();
      return withCat((cat) => json('PUT', `/api/cats/${cat}/caretakers/${helper.user.id}`))(ctx);
    },
  },
  {
    route: 'DELETE /api/cats/:catId/caretakers/:userId',
    expect: guarded(403, 403, 200),
    scene: async (ctx) => {
      const helper = await ctx.person();
      const scene = await withCat((cat) => json('DELETE', `/api/cats/${cat}/caretakers/${helper.user.id}`))(
        ctx,
      );
      const added = await call(
        ctx.t.app,
        scene.owner.headers,
        'PUT',
        `/api/cats/${scene.ownerIds[2]}/caretakers/${helper.user.id}`,
      );
      expect(added.statusCode, added.body).toBe(200);
      return scene;
    },
  },

  // Missing cats (issue 26): the owner cares for the cat (withCat); withMissingCat has it marked missing.
  {
    route: 'GET /api/cats/missing',
    expect: guarded(200, 200, 200),
    scene: withMissingCat(() =>
      json('GET', `/api/cats/missing?near=${MATRIX_PLACE.latitude},${MATRIX_PLACE.longitude}`),
    ),
  },
  {
    // Explore's pins for a viewport around the place.
    route: 'GET /api/cats/missing/map',
    expect: guarded(200, 200, 200),
    scene: withMissingCat(() =>
      json(
        'GET',
        `/api/cats/missing/map?west=${MATRIX_PLACE.longitude - 0.02}&south=${MATRIX_PLACE.latitude - 0.01}` +
          `&east=${MATRIX_PLACE.longitude + 0.02}&north=${MATRIX_PLACE.latitude + 0.01}&zoom=15`,
      ),
    ),
  },
  {
    route: 'GET /api/cats/:catId/missing',
    expect: guarded(200, 200, 200),
    scene: withMissingCat((cat) => json('GET', `/api/cats/${cat}/missing`)),
  },
  {
    route: 'POST /api/cats/:catId/missing',
    // Caretakers only; the demo account is refused as the demo account.
    expect: guarded(403, 403, 201),
    scene: withCat((cat) => json('POST', `/api/cats/${cat}/missing`, missingBody())),
  },
  {
    route: 'POST /api/cats/:catId/missing/renew',
    expect: guarded(403, 403, 200),
    scene: withMissingCat((cat) => json('POST', `/api/cats/${cat}/missing/renew`)),
  },
  {
    route: 'DELETE /api/cats/:catId/missing',
    expect: guarded(403, 403, 200),
    scene: withMissingCat((cat) => json('DELETE', `/api/cats/${cat}/missing`)),
  },
  {
    route: 'POST /api/cats/:catId/missing/reports',
    // Anyone but the demo answers 'I saw this cat': a report on the owner's alert, told to the owner.
    expect: guarded({ status: 201, writes: 'any' }, 403, 201),
    scene: withMissingCat((cat) =>
      json('POST', `/api/cats/${cat}/missing/reports`, {
        seenAt: new Date(Date.now() - 60_000).toISOString(),
        place: MATRIX_PLACE,
      }),
    ),
  },
  {
    route: 'GET /api/cats/:catId/missing/reports',
    // The cat's caretakers only: the demo account is refused as any stranger is.
    expect: guarded(403, 403, 200),
    demoRefusedAsStranger: true,
    scene: withMissingCat((cat) => json('GET', `/api/cats/${cat}/missing/reports`)),
  },
  {
    route: 'PUT /api/profile/settings/home-area',
    // Each caller sets their own; the demo may not.
    expect: guarded(200, 403, 200),
    scene: simple(() => json('PUT', '/api/profile/settings/home-area', { homeArea: MATRIX_PLACE })),
  },
  // 'This is Luna' and merges (issue 26).
  {
    route: 'POST /api/posts/:postId/cat-suggestions',
    // Anyone but the picture's author and the demo suggests a cat for it: the owner here is a suggester.
    expect: guarded(201, 403, 201),
    scene: async (ctx) => {
      const { postId, catId } = await pictureAndCat(ctx);
      const owner = await ctx.person(OWNER_PASSWORD);
      return {
        owner,
        ownerIds: [owner.user.id],
        request: () => json('POST', `/api/posts/${postId}/cat-suggestions`, { catId }),
      };
    },
  },
  {
    route: 'GET /api/posts/:postId/cat-suggestions',
    // The picture's author only; the demo account is refused as anyone else is.
    expect: guarded(403, 403, 200),
    demoRefusedAsStranger: true,
    scene: withSuggestion((postId) => json('GET', `/api/posts/${postId}/cat-suggestions`)),
  },
  ...(['accept', 'decline'] as const).map((verb): Row => ({
    route: `POST /api/posts/:postId/cat-suggestions/:suggestionId/${verb}`,
    expect: guarded(403, 403, 200),
    scene: withSuggestion((postId, suggestionId) =>
      json('POST', `/api/posts/${postId}/cat-suggestions/${suggestionId}/${verb}`),
    ),
  })),
  {
    route: 'POST /api/cats/:catId/merge',
    // A caretaker of both cats only.
    expect: guarded(403, 403, 200),
    scene: withMerge(false, (catId, duplicateId) =>
      json('POST', `/api/cats/${catId}/merge`, { duplicateCatId: duplicateId }),
    ),
  },
  {
    route: 'GET /api/cats/:catId/history',
    expect: guarded(200, 200, 200),
    scene: withMerge(true, (catId) => json('GET', `/api/cats/${catId}/history`)),
  },
  {
    route: 'POST /api/cats/:catId/merges/:mergeId/undo',
    // A caretaker of the surviving cat only.
    expect: guarded(403, 403, 200),
    scene: withMerge(true, (catId, _duplicateId, mergeId) =>
      json('POST', `/api/cats/${catId}/merges/${mergeId}/undo`),
    ),
  },
  {
    route: 'POST /api/moderation/reports/:reportId/actions',
    // Moderators only (issue 27): members and the demo account are refused as members, not as demo.
    expect: guarded(403, 403, 200),
    demoRefusedAsStranger: true,
    scene: withReport((reportId) =>
      json('POST', `/api/moderation/reports/${reportId}/actions`, {
        actions: [{ action: 'remove', rule: 'spam', explanation: 'Advertising.' }],
      }),
    ),
  },
  {
    route: 'POST /api/moderation/actions/:actionId/restore',
    expect: guarded(403, 403, 200),
    demoRefusedAsStranger: true,
    scene: withReport((_reportId, removalId) =>
      json('POST', `/api/moderation/actions/${removalId}/restore`, { explanation: 'On reflection, fine.' }),
    ),
  },
  {
    route: 'GET /api/moderation/log',
    expect: guarded(403, 403, 200),
    demoRefusedAsStranger: true,
    scene: withReport(() => json('GET', '/api/moderation/log')),
  },
  // The author's side (issue 27): statements, one's own reports, appeals, and their decision.
  {
    route: 'GET /api/moderation/statements',
    expect: guarded(200, 200, 200),
    scene: withDecision(false, () => json('GET', '/api/moderation/statements')),
  },
  {
    route: 'GET /api/reports/mine',
    expect: guarded(200, 200, 200),
    scene: withDecision(false, () => json('GET', '/api/reports/mine')),
  },
  {
    route: 'POST /api/appeals',
    // Only the person the decision is about appeals it: to anyone else it is unknown.
    expect: guarded(404, 403, 201),
    scene: withDecision(false, (actionId) =>
      json('POST', '/api/appeals', { actionId, body: 'Please look again.' }),
    ),
  },
  {
    route: 'GET /api/moderation/appeals',
    expect: moderatorsOnly({ status: 200, writes: 'none' }),
    demoRefusedAsStranger: true,
    scene: withDecision(true, () => json('GET', '/api/moderation/appeals')),
  },
  {
    route: 'POST /api/moderation/appeals/:appealId/decision',
    // Any moderator but the one who decided (the scene's owner is another moderator). The staff callers
    // come after the owner in the same scene: an appeal is decided once, so they find it decided.
    expect: { ...moderatorsOnly({ status: 200, writes: 'any' }), moderator: 409, admin: 409 },
    demoRefusedAsStranger: true,
    scene: withDecision(true, (_actionId, appealId) =>
      json('POST', `/api/moderation/appeals/${appealId}/decision`, { outcome: 'upheld' }),
    ),
  },
  // Moderation (issue 27): moderators and admins only, the role read on each request. The owner is a
  // moderator (an admin for changing roles); the demo account is refused as the member it is.
  {
    route: 'GET /api/moderation/reports',
    expect: moderatorsOnly({ status: 200, writes: 'none' }),
    demoRefusedAsStranger: true,
    scene: withQueuedReport('moderator', () => json('GET', '/api/moderation/reports')),
  },
  {
    route: 'GET /api/moderation/stats',
    expect: moderatorsOnly({ status: 200, writes: 'none' }),
    demoRefusedAsStranger: true,
    scene: withQueuedReport('moderator', () => json('GET', '/api/moderation/stats')),
  },
  {
    // Issue 46: a report's picture reaches moderators only, whatever becomes of the post.
    route: 'GET /api/moderation/reports/:reportId/picture',
    expect: moderatorsOnly({ status: 200, writes: 'none' }),
    demoRefusedAsStranger: true,
    scene: async (ctx) => {
      const owner = await ctx.staff('moderator', OWNER_PASSWORD);
      const [author, reporter] = [await ctx.person(), await ctx.person()];
      const post = await ctx.post(author);
      const res = await call(ctx.t.app, reporter.headers, 'POST', '/api/reports', {
        targetType: 'post',
        targetId: post._id,
        reason: 'spam',
      });
      expect(res.statusCode, res.body).toBe(201);
      const { reportId } = res.json() as { reportId: string };
      return {
        owner,
        ownerIds: [owner.user.id],
        request: () => json('GET', `/api/moderation/reports/${reportId}/picture`),
      };
    },
  },
  {
    route: 'POST /api/moderation/notes',
    expect: { ...moderatorsOnly(201), owner: 201 },
    demoRefusedAsStranger: true,
    scene: withQueuedReport('moderator', (postId) =>
      json('POST', '/api/moderation/notes', { targetType: 'post', targetId: postId, body: 'Seen before.' }),
    ),
  },
  {
    route: 'GET /api/moderation/staff',
    expect: moderatorsOnly({ status: 200, writes: 'none' }),
    demoRefusedAsStranger: true,
    scene: withQueuedReport('moderator', () => json('GET', '/api/moderation/staff')),
  },
  {
    route: 'PUT /api/moderation/staff/:user',
    // Admins only; the owner (an admin) makes a member a moderator, then the other admin finds it done.
    expect: { ...moderatorsOnly({ status: 200, writes: 'any' }), moderator: 403 },
    demoRefusedAsStranger: true,
    scene: async (ctx) => {
      const owner = await ctx.staff('admin', OWNER_PASSWORD);
      const member = await ctx.person();
      return {
        owner,
        ownerIds: [owner.user.id],
        request: () => json('PUT', `/api/moderation/staff/${member.user.id}`, { role: 'moderator' }),
      };
    },
  },
];

/** Moderation routes (issue 27): anonymous 401, expired 403, members and the demo account 403. */
function moderatorsOnly(staff: number | Cell): Expect {
  return {
    anonymous: 401,
    expired: 403,
    other: 403,
    demo: 403,
    owner: typeof staff === 'number' ? staff : staff.status,
    moderator: staff,
    admin: staff,
  };
}

/**
 * A scene whose owner has a role, with one open report about someone else's post (the reports module
 * stores it; here it is written as it would be). ownerIds: the owner.
 */
function withQueuedReport(
  role: 'moderator' | 'admin',
  request: (postId: string) => InjectOptions,
): Row['scene'] {
  return async (ctx) => {
    const owner = await ctx.staff(role, OWNER_PASSWORD);
    const author = await ctx.person();
    const reporter = await ctx.person();
    const post = await ctx.post(author);
    await ctx.t.db.insert(reports).values({
      reporterId: reporter.user.id,
      targetType: 'post',
      targetId: post._id,
      targetUserId: author.user.id,
      reason: 'spam',
      snapshot: { caption: post.caption ?? '' },
    });
    return { owner, ownerIds: [owner.user.id], request: () => request(post._id) };
  };
}

/** A picture by someone (its author) and a cat someone else cares for: what a suggestion names. */
async function pictureAndCat(ctx: Ctx): Promise<{ postId: string; catId: string }> {
  const author = await ctx.person();
  const carer = await ctx.person();
  const post = await ctx.post(author);
  const res = await call(ctx.t.app, carer.headers, 'POST', '/api/cats', { name: 'Suggested' });
  expect(res.statusCode, res.body).toBe(201);
  return { postId: post._id, catId: (res.json() as { cat: { _id: string } }).cat._id };
}

/**
 * A scene around the owner's picture with a suggestion of a cat by someone else, still open.
 * ownerIds: the owner, the picture.
 */
function withSuggestion(request: (postId: string, suggestionId: string) => InjectOptions): Row['scene'] {
  return async (ctx) => {
    const owner = await ctx.person(OWNER_PASSWORD);
    const post = await ctx.post(owner);
    const { catId } = await pictureAndCat(ctx);
    const suggester = await ctx.person();
    const res = await call(ctx.t.app, suggester.headers, 'POST', `/api/posts/${post._id}/cat-suggestions`, {
      catId,
    });
    expect(res.statusCode, res.body).toBe(201);
    const suggestionId = (res.json() as { suggestion: { _id: string } }).suggestion._id;
    return { owner, ownerIds: [owner.user.id, post._id], request: () => request(post._id, suggestionId) };
  };
}

/**
 * A scene around two cats the owner cares for, the second with a sighting of the owner's; `merged`: the
 * second already merged into the first. ownerIds: the owner, both cats, the post.
 */
function withMerge(
  merged: boolean,
  request: (catId: string, duplicateId: string, mergeId: string) => InjectOptions,
): Row['scene'] {
  return async (ctx) => {
    const owner = await ctx.person(OWNER_PASSWORD);
    const post = await ctx.post(owner);
    const made: string[] = [];
    for (const body of [{ name: 'Survivor' }, { name: 'Duplicate', postId: post._id }]) {
      const res = await call(ctx.t.app, owner.headers, 'POST', '/api/cats', body);
      expect(res.statusCode, res.body).toBe(201);
      made.push((res.json() as { cat: { _id: string } }).cat._id);
    }
    const [catId, duplicateId] = made as [string, string];
    let mergeId = '';
    if (merged) {
      const res = await call(ctx.t.app, owner.headers, 'POST', `/api/cats/${catId}/merge`, {
        duplicateCatId: duplicateId,
      });
      expect(res.statusCode, res.body).toBe(200);
      mergeId = (res.json() as { merge: { _id: string } }).merge._id;
    }
    return {
      owner,
      ownerIds: [owner.user.id, catId, duplicateId, post._id],
      request: () => request(catId, duplicateId, mergeId),
    };
  };
}

/** A browser's push subscription on a browser push service's host (never sent to here: nobody is told). */
function pushSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/matrix-${randomUUID()}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

/** A scene whose request names nothing but the caller. */
function simple(request: (owner: Person) => InjectOptions | Promise<InjectOptions>): Row['scene'] {
  return async (ctx) => {
    const owner = await ctx.person(OWNER_PASSWORD);
    return { owner, ownerIds: [owner.user.id], request: () => request(owner) };
  };
}

/**
 * The owner is a moderator (issue 27). A neighbour's post was reported and the moderator removed it;
 * then it was reported again: that report is open, and the removal can be undone.
 */
function withReport(request: (openReportId: string, removalId: string) => InjectOptions): Row['scene'] {
  return async (ctx) => {
    const owner = await ctx.person(OWNER_PASSWORD);
    await ctx.t.db.execute(sql`update users set role = 'moderator' where id = ${owner.user.id}`);
    const author = await ctx.person();
    const post = await ctx.post(author);
    const report = async () => {
      const reporter = await ctx.person();
      const res = await ctx.t.db.execute(sql`
        insert into reports (reporter_id, target_type, target_id, target_user_id, reason, snapshot)
        values (${reporter.user.id}, 'post', ${post._id}, ${author.user.id}, 'spam', '{}')
        returning id::text as id`);
      const rows = (Array.isArray(res) ? res : (res as { rows: { id: string }[] }).rows) as { id: string }[];
      return rows[0]!.id;
    };
    const removed = await call(
      ctx.t.app,
      owner.headers,
      'POST',
      `/api/moderation/reports/${await report()}/actions`,
      {
        actions: [{ action: 'remove', rule: 'spam', explanation: 'Advertising.' }],
      },
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const removalId = (removed.json() as { actions: { _id: string }[] }).actions[0]!._id;
    const openReportId = await report();
    return { owner, ownerIds: [owner.user.id], request: () => request(openReportId, removalId) };
  };
}

/**
 * A decision about the owner's post (issue 27): a moderator removed it after a report. `appealed`: the
 * owner appealed, and the owner is then a moderator too (another than the one who decided), so that
 * the owner may decide the appeal. ownerIds: the owner, the post.
 */
function withDecision(
  appealed: boolean,
  request: (actionId: string, appealId: string) => InjectOptions,
): Row['scene'] {
  return async (ctx) => {
    const owner = await ctx.person(OWNER_PASSWORD);
    const author = appealed ? await ctx.person() : owner;
    const post = await ctx.post(author);
    const decider = await ctx.staff('moderator');
    const reporter = await ctx.person();
    const [report] = await ctx.t.db
      .insert(reports)
      .values({
        reporterId: reporter.user.id,
        targetType: 'post',
        targetId: post._id,
        targetUserId: author.user.id,
        reason: 'spam',
        snapshot: { caption: post.caption ?? '' },
      })
      .returning({ id: reports.id });
    const removed = await call(
      ctx.t.app,
      decider.headers,
      'POST',
      `/api/moderation/reports/${report!.id}/actions`,
      {
        actions: [{ action: 'remove', rule: 'spam', explanation: 'Advertising.' }],
      },
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const actionId = (removed.json() as { actions: { _id: string }[] }).actions[0]!._id;
    let appealId = '';
    if (appealed) {
      await ctx.t.db.execute(sql`update users set role = 'moderator' where id = ${owner.user.id}`);
      const res = await call(ctx.t.app, author.headers, 'POST', '/api/appeals', { actionId, body: 'Mine.' });
      expect(res.statusCode, res.body).toBe(201);
      appealId = (res.json() as { appeal: { _id: string } }).appeal._id;
    }
    return {
      owner,
      ownerIds: appealed ? [owner.user.id] : [owner.user.id, post._id],
      request: () => request(actionId, appealId),
    };
  };
}

/**
 * The owner is suspended (issue 27) by a moderator's decision, one per caller so that each may appeal
 * its own; requests carry the owner's credentials. ownerIds: none (the suspended owner's rows change).
 */
function withSuspendedOwner(
  request: (actionId: string, credentials: { email: string; password: string }) => InjectOptions,
): Row['scene'] {
  return async (ctx) => {
    const owner = await ctx.person(OWNER_PASSWORD);
    const decider = await ctx.staff('moderator');
    await ctx.t.db
      .execute(sql`update users set suspended_at = now(), suspended_until = now() + interval '7 days'
      where id = ${owner.user.id}`);
    const actionIds = new Map<Who, string>();
    for (const who of WHO) {
      const [row] = await ctx.t.db
        .insert(moderationActions)
        .values({
          moderatorId: decider.user.id,
          moderatorName: decider.user.username,
          targetType: 'user',
          targetId: owner.user.id,
          targetUserId: owner.user.id,
          action: 'suspend',
          rule: 'harassment',
          explanation: 'Threats.',
          suspendDays: 7,
        })
        .returning({ id: moderationActions.id });
      actionIds.set(who, row!.id);
    }
    const credentials = { email: owner.user.email, password: OWNER_PASSWORD };
    return { owner, ownerIds: [], request: (who) => request(actionIds.get(who)!, credentials) };
  };
}

/** A scene around one post of the owner (a real upload, so its media exists). */
function withPost(request: (post: Post, owner: Person) => InjectOptions): Row['scene'] {
  return async (ctx) => {
    const owner = await ctx.person(OWNER_PASSWORD);
    const post = await ctx.post(owner);
    return { owner, ownerIds: [owner.user.id, post._id], request: () => request(post, owner) };
  };
}

/** A scene where someone liked the owner's post: the owner has an unread notification. */
function withNotification(request: (owner: Person) => InjectOptions): Row['scene'] {
  return async (ctx) => {
    const owner = await ctx.person(OWNER_PASSWORD);
    const post = await ctx.post(owner);
    const fan = await ctx.person();
    const liked = await call(ctx.t.app, fan.headers, 'PUT', `/api/posts/likePost/${post._id}`);
    expect(liked.statusCode, liked.body).toBe(200);
    return { owner, ownerIds: [owner.user.id, post._id], request: () => request(owner) };
  };
}

/** A scene around the owner's group with one of the owner's posts shared in it. */
function withGroup(request: (group: { _id: string; code: string }) => InjectOptions): Row['scene'] {
  return async (ctx) => {
    const owner = await ctx.person(OWNER_PASSWORD);
    const group = await createGroup(ctx.t.app, owner.headers, 'Mine');
    const post = await ctx.post(owner);
    await call(ctx.t.app, owner.headers, 'PUT', `/api/posts/${post._id}/groups`, { groupIds: [group._id] });
    return { owner, ownerIds: [owner.user.id, group._id, post._id], request: () => request(group) };
  };
}

/**
 * A scene around the owner's cat, created from one of the owner's posts (its cover and first sighting).
 * ownerIds: the owner, the post, the cat.
 */
function withCat(request: (catId: string, postId: string) => InjectOptions): Row['scene'] {
  return async (ctx) => {
    const owner = await ctx.person(OWNER_PASSWORD);
    const post = await ctx.post(owner);
    const res = await call(ctx.t.app, owner.headers, 'POST', '/api/cats', {
      name: 'Matrix cat',
      postId: post._id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const cat = (res.json() as { cat: { _id: string } }).cat._id;
    return { owner, ownerIds: [owner.user.id, post._id, cat], request: () => request(cat, post._id) };
  };
}

/** Where the matrix's missing cat was last seen. */
const MATRIX_PLACE = { latitude: 51.5012, longitude: -0.1245 };
const missingBody = () => ({
  lastSeenAt: new Date(Date.now() - 60 * 60 * 1000).toISOString(),
  place: MATRIX_PLACE,
  note: 'Grey, shy.',
  contact: 'report',
});

/** withCat, with the cat marked missing by the owner (its caretaker). */
function withMissingCat(request: (catId: string, postId: string) => InjectOptions): Row['scene'] {
  return async (ctx) => {
    const scene = await withCat(request)(ctx);
    const raised = await call(
      ctx.t.app,
      scene.owner.headers,
      'POST',
      `/api/cats/${scene.ownerIds[2]}/missing`,
      missingBody(),
    );
    expect(raised.statusCode, raised.body).toBe(201);
    return scene;
  };
}

/** Rows of any table that mention one of the ids: what belongs to (or points at) the owner. */
async function rowsMentioning(db: Database, ids: string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await appTables(db)) {
    const res = await db.execute(sql.raw(`select t::text as row from "${table}" t`));
    const rows = (Array.isArray(res) ? res : (res as { rows: { row: string }[] }).rows) as { row: string }[];
    out[table] = rows
      .map((r) => r.row)
      .filter((row) => ids.some((id) => row.includes(id)))
      .sort();
  }
  return out;
}

describe('authorisation matrix', () => {
  let t: TestApp;
  let ctx: Ctx;
  const grid: string[] = [];

  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    ctx = {
      t,
      person: async (password) => {
        const user = await createUser(t.db, password ? { password } : {});
        return { user, headers: await authHeader(t.app, user.id) };
      },
      staff: async (role, password) => {
        const user = await createUser(t.db, { role, ...(password ? { password } : {}) });
        return { user, headers: await authHeader(t.app, user.id) };
      },
      post: (by) => smallJpeg((seed += 1)).then((image) => uploadPost(t.app, by.headers, image)),
      refreshCookie: async (email, password) => {
        const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
        expect(res.statusCode, `login ${email}`).toBe(200);
        return res.cookies.find((c) => c.name === 'jwt')!.value;
      },
    };
  });
  afterAll(async () => {
    console.log(
      ['authorisation matrix (status per caller; * = refused and nothing changed)', ...grid].join('\n'),
    );
    await t?.close();
  });

  it('has a row for every route of the API', () => {
    const routes = apiRoutes(t.app)
      .map((r) => r.key)
      .sort();
    expect(ROWS.map((r) => r.route).sort()).toEqual(routes);
  });

  /** A stream request with the caller's ticket in its query (see Row.streamTicket). */
  async function openStream(
    request: InjectOptions,
    who: Who,
    headers: Record<string, string>,
    ownerId: string,
  ): Promise<LightMyRequestResponse> {
    let ticket: string | null = null;
    let userId = ownerId;
    if (who === 'expired') {
      ticket = signStreamTicket(
        t.app.sessionKeys.streamTicket,
        { userId: ownerId, generation: 0 },
        new Date(Date.now() - 1000),
      );
    } else if (headers.authorization) {
      const res = await t.app.inject({ method: 'POST', url: '/api/notifications/stream-ticket', headers });
      expect(res.statusCode, res.body).toBe(200);
      ticket = (res.json() as { ticket: string }).ticket;
      userId = ticket.split('.')[0]!;
    }
    const url = `${String(request.url)}${ticket ? `&ticket=${encodeURIComponent(ticket)}` : ''}`;
    const res = await injectStream(t.app, { ...request, url }, userId);
    if (res.statusCode === 200) {
      const events = parseSse(res.body);
      const replayed = events.filter((e) => e.event === 'notification').length;
      // The owner's replay holds the like on their post; nobody else's stream shows it.
      expect(replayed, `${who}: ${res.body}`).toBe(who === 'owner' ? 1 : 0);
      expect(events.at(-1)?.event, who).toBe('unread');
    }
    return res;
  }

  it('answers each caller as the matrix says, and a refusal changes nothing', async () => {
    const problems: string[] = [];
    const demo = await authHeader(t.app, DEMO_USER_ID);
    grid.push(`${'route'.padEnd(52)} ${[...WHO, ...STAFF].map((w) => w.padEnd(9)).join(' ')}`);
    for (const row of ROWS) {
      const scene = await row.scene(ctx);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() - 2 * 60 * 60 * 1000);
      const expired = await authHeader(t.app, scene.owner.user.id);
      vi.useRealTimers();
      const other = await ctx.person();
      const staffHere = STAFF.filter((s) => row.expect[s] !== undefined);
      const headersFor: Partial<Record<Caller, Record<string, string>>> = {
        anonymous: {},
        expired,
        other: other.headers,
        demo,
        owner: scene.owner.headers,
      };
      for (const role of staffHere) headersFor[role] = (await ctx.staff(role)).headers;
      const cells: string[] = [];
      for (const who of [...WHO, ...staffHere] as Caller[]) {
        const spec = row.expect[who]!;
        const cell: Cell = typeof spec === 'number' ? { status: spec } : spec;
        const request = await scene.request(STAFF.includes(who as Staff) ? 'other' : (who as Who));
        // What a caller other than the owner may change, as the expected answer says (an answer other
        // than the expected one is a problem already); the owner's own writes are not checked. It decides
        // what is read before the call: the whole database and the media, or the owner's rows.
        const checkedWrites: Writes | null =
          who === 'owner' ? null : (cell.writes ?? (cell.status >= 400 ? 'none' : 'own'));
        const before = {
          all: checkedWrites === 'none' ? await fullSnapshot(t.db) : {},
          media: checkedWrites === 'none' ? mediaFiles(t.mediaDir) : [],
          owner: checkedWrites === 'own' ? await rowsMentioning(t.db, scene.ownerIds) : {},
        };
        const res: LightMyRequestResponse = row.streamTicket
          ? await openStream(request, who as Who, headersFor[who]!, scene.owner.user.id)
          : await t.app.inject({
              ...request,
              headers: { ...(request.headers as Record<string, string> | undefined), ...headersFor[who]! },
            } as InjectOptions);
        const where = `${row.route} as ${who}`;
        if (res.statusCode !== cell.status)
          problems.push(`${where}: expected ${cell.status}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
        const refused = res.statusCode >= 400;
        if (refused) {
          const body = res.json() as { message?: unknown };
          if (typeof body.message !== 'string') problems.push(`${where}: refusal without {message}`);
        }
        const bearer = row.route !== 'GET /api/refresh' && !row.streamTicket;
        if (
          bearer &&
          who === 'anonymous' &&
          res.statusCode === 401 &&
          res.headers['www-authenticate'] !== 'Bearer'
        ) {
          problems.push(`${where}: 401 without WWW-Authenticate: Bearer`);
        }
        if (
          bearer &&
          who === 'expired' &&
          res.statusCode === 403 &&
          !String(res.headers['www-authenticate']).includes('invalid_token')
        ) {
          problems.push(`${where}: expired token refused without invalid_token`);
        }
        const demoRule = who === 'demo' && cell.status === 403 && !row.demoRefusedAsStranger;
        if (
          demoRule &&
          res.statusCode === 403 &&
          (res.json() as { message: string }).message !== DEMO_DISABLED_MESSAGE
        ) {
          problems.push(`${where}: demo refused without '${DEMO_DISABLED_MESSAGE}'`);
        }
        if (checkedWrites === 'none') {
          const changed = changedTables(before.all, await fullSnapshot(t.db)).filter(
            (x) => !(row.refusalMayWrite ?? []).includes(x),
          );
          if (changed.length > 0)
            problems.push(`${where}: ${res.statusCode} but changed ${changed.join(', ')}`);
          if (mediaFiles(t.mediaDir).length !== before.media.length)
            problems.push(`${where}: ${res.statusCode} but media files changed`);
        } else if (checkedWrites === 'own') {
          const changed = changedTables(before.owner, await rowsMentioning(t.db, scene.ownerIds));
          if (changed.length > 0)
            problems.push(`${where}: changed the owner's rows in ${changed.join(', ')}`);
        }
        cells.push(`${res.statusCode}${refused && (cell.writes ?? 'none') === 'none' ? '*' : ' '}`.padEnd(9));
      }
      for (const role of STAFF) if (!staffHere.includes(role)) cells.push('-'.padEnd(9));
      grid.push(`${row.route.padEnd(52)} ${cells.join(' ')}`);
    }
    expect(problems).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 300_000);

  it('refuses a token of a deleted account, and a token signed with another secret', async () => {
    const gone = await ctx.person();
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/profile/deleteUser/${gone.user.id}`,
      headers: gone.headers,
    });
    expect(deleted.statusCode).toBe(204);
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/profile/getMyProfile',
      headers: gone.headers,
    });
    expect(after.statusCode).toBe(403);
    const forged = await buildTestApp();
    try {
      const token = await authHeader(forged.app, DEMO_USER_ID);
      const res = await t.app.inject({ method: 'GET', url: '/api/feed/1', headers: token });
      expect(res.statusCode).toBe(403);
      const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: randomUUID(), iss: 'neighbourhood-cats' })).toString('base64url')}.`;
      const none = await t.app.inject({
        method: 'GET',
        url: '/api/feed/1',
        headers: { authorization: `Bearer ${unsigned}` },
      });
      expect(none.statusCode).toBe(403);
    } finally {
      await forged.close();
    }
  });
});
