import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../../src/db/client.ts';
import { exportsSettled } from './exports.ts';
import type { ApiRoute } from './routes.ts';
import { exampleFor } from './routes.ts';
import type { World } from './world.ts';

/**
 * Path parameter values for the baseline request of a route: the caller's own resources, except that
 * DELETE routes get someone else's (a hostile body must not get to delete the world the suite stands
 * on). Unknown parameter names (a route added later) get a random UUID.
 */
export function baselineParams(route: ApiRoute, w: World): Record<string, string> {
  const del = route.method === 'DELETE';
  const known: Record<string, string> = {
    postId: del ? w.bPost._id : w.aPost._id,
    commentId: del ? w.bComment : w.aComment,
    groupId: del ? w.bGroup._id : w.aGroup._id,
    catId: del ? w.bCat : w.aCat,
    userId: w.b.user.id,
    userid: w.b.user.id,
    page: '1',
  };
  return Object.fromEntries(route.params.map((p) => [p, known[p] ?? randomUUID()]));
}

/**
 * A body that the route would accept, or nearly (wrong current passwords, so no account changes), for
 * the hostile variants to start from. Routes without an entry get one derived from their schema.
 */
export function baselineBody(route: ApiRoute, w: World): Record<string, unknown> {
  switch (route.key) {
    case 'POST /api/signup':
      return { username: 'hostile_cat', email: 'hostile@example.com', password: 'Whiskers123' };
    case 'POST /api/login':
    case 'POST /api/login/suspension':
      return { email: 'nobody@example.com', password: 'Wrong12345' };
    case 'POST /api/login/suspension/appeal':
      return {
        email: 'nobody@example.com',
        password: 'Wrong12345',
        actionId: '00000000-0000-4000-8000-000000000000',
        body: 'Please look again.',
      };
    case 'PUT /api/profile/settings/username':
      return { username: 'renamed_cat', currentPassword: 'Not-the-password1' };
    case 'PUT /api/profile/settings/email':
      return { email: 'renamed@example.com', currentPassword: 'Not-the-password1' };
    case 'PUT /api/profile/settings/password':
      return { newPassword: 'Whiskers456', currentPassword: 'Not-the-password1' };
    case 'PUT /api/profile/settings/location-privacy':
      return { exactPublicLocation: false };
    case 'POST /api/posts/createComment/:postId':
      return { newComment: 'Lovely cat' };
    case 'PUT /api/profile/blockUser/':
      return { blockedUser: { _id: w.c.user.id }, postId: w.bPost._id, currentUserId: w.b.user.id };
    case 'POST /api/groups/createGroup':
      return { submitData: 'Street cats' };
    case 'POST /api/groups/joinGroup':
      return { submitData: w.bGroup.code };
    case 'PUT /api/posts/:postId/groups':
      return { groupIds: [w.aGroup._id] };
    case 'POST /api/notifications/push/subscriptions': {
      // A browser's real keys, on a browser push service's host: nobody here is ever told anything.
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      return {
        endpoint: `https://fcm.googleapis.com/fcm/send/hostile-${randomUUID()}`,
        expirationTime: null,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: randomBytes(16).toString('base64url'),
        },
      };
    }
    case 'DELETE /api/notifications/push/subscriptions':
      return { endpoint: 'https://fcm.googleapis.com/fcm/send/hostile' };
    default: {
      const example = exampleFor(route.body ?? { type: 'object' });
      return example && typeof example === 'object' && !Array.isArray(example)
        ? (example as Record<string, unknown>)
        : { currentUserId: w.b.user.id };
    }
  }
}

/** A wrong password (login, or the current password of a settings change) is recorded for throttling. */
export function refusalMayWrite(
  route: ApiRoute,
  db: Database,
): { mayWriteOnRefusal?: string[]; settle?: () => Promise<void> } {
  // A suspended person's reading and appealing (issue 27) go through the login's checks too.
  const guessesPassword =
    route.key === 'POST /api/login' ||
    route.key.startsWith('POST /api/login/suspension') ||
    'currentPassword' in (route.body?.properties ?? {});
  if (guessesPassword) return { mayWriteOnRefusal: ['login_failures'] };
  // A started export writes its file and row after the 202.
  if (route.key === 'POST /api/profile/export') return { settle: () => exportsSettled(db) };
  return {};
}
