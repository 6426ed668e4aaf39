import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type {
  CommentsResponse,
  CreateGroupResponse,
  Notification,
  NotificationsResponse,
  NotificationType,
} from '@cats/contracts';
import type { TestApp } from './build-app.ts';
import { authHeader } from './factories.ts';
import { smallJpeg, uploadPost, type Method } from './hostile/support/world.ts';

type User = { id: string };

/**
 * The notification centre and the causes of its entries, driven through the API as the web app does
 * (issue 25): one helper per request, each asserting that the request succeeded.
 */
export function notificationsClient(t: TestApp) {
  let images = 0;

  async function send(user: User, method: Method, url: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: await authHeader(t.app, user.id),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  }
  async function ok(user: User, method: Method, url: string, payload?: unknown) {
    const res: LightMyRequestResponse = await send(user, method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  }

  const client = {
    send,
    ok,

    /** One page of the user's notifications. */
    async page(user: User, cursor?: string): Promise<NotificationsResponse> {
      const query = cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`;
      return (await ok(user, 'GET', `/api/notifications${query}`)).json();
    },

    /** Every notification of the user, all pages. */
    async all(user: User): Promise<Notification[]> {
      const out: Notification[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 100; pages += 1) {
        const body = await client.page(user, cursor);
        out.push(...body.notifications);
        if (!body.info.nextCursor) return out;
        cursor = body.info.nextCursor;
      }
      throw new Error('more than 100 pages');
    },

    /** The user's entries of one type (about one post, when given). */
    async ofType(user: User, type: NotificationType, postId?: string): Promise<Notification[]> {
      return (await client.all(user)).filter(
        (n) => n.type === type && (postId === undefined || n.post?._id === postId),
      );
    },

    async unread(user: User): Promise<number> {
      return ((await ok(user, 'GET', '/api/notifications/unread-count')).json() as { count: number }).count;
    },

    async readAll(user: User): Promise<void> {
      await ok(user, 'POST', '/api/notifications/read', {});
    },

    async like(user: User, postId: string): Promise<void> {
      await ok(user, 'PUT', `/api/posts/likePost/${postId}`, {});
    },

    /** Comments and answers the new comment's id. */
    async comment(user: User, postId: string, text: string): Promise<string> {
      const res = await ok(user, 'POST', `/api/posts/createComment/${postId}`, { newComment: text });
      const found = (res.json() as CommentsResponse).comments.filter((c) => c.comment === text);
      expect(found).toHaveLength(1);
      return found[0]!._id;
    },

    async deleteComment(user: User, commentId: string): Promise<void> {
      await ok(user, 'DELETE', `/api/posts/comments/${commentId}`);
    },

    /** A real upload (so that the post's groups are set the way the Spot screen sets them). */
    async upload(user: User, groupIds: string[] = []): Promise<string> {
      const post = await uploadPost(t.app, await authHeader(t.app, user.id), await smallJpeg((images += 1)), {
        comment: 'A cat on a wall',
        ...(groupIds.length ? { groupIds: JSON.stringify(groupIds) } : {}),
      });
      return post._id;
    },

    /** A real upload linked to a cat from the start, as the Spot screen's 'Which cat is this?' does. */
    async uploadSighting(user: User, catId: string): Promise<string> {
      const post = await uploadPost(t.app, await authHeader(t.app, user.id), await smallJpeg((images += 1)), {
        comment: 'Seen again',
        showLocation: 'true',
        latitude: '51.5',
        longitude: '-0.12',
        catId,
      });
      return post._id;
    },

    /** The author links their post to a cat, or unlinks it (null). */
    async linkCat(user: User, postId: string, catId: string | null): Promise<void> {
      await ok(user, 'PUT', `/api/posts/${postId}/cat`, { catId });
    },

    async follow(user: User, catId: string): Promise<void> {
      await ok(user, 'PUT', `/api/cats/${catId}/follow`);
    },

    async createGroup(owner: User, name: string): Promise<{ id: string; code: string }> {
      const res = await ok(owner, 'POST', '/api/groups/createGroup', { submitData: name });
      const { group } = res.json() as CreateGroupResponse;
      return { id: group._id, code: group.code };
    },

    async askToJoin(user: User, code: string): Promise<void> {
      await ok(user, 'POST', '/api/groups/joinGroup', { submitData: code });
    },

    async answer(owner: User, groupId: string, user: User, answer: 'accept' | 'decline'): Promise<void> {
      await ok(owner, 'POST', `/api/groups/${groupId}/requests/${user.id}/${answer}`);
    },

    /** A group of `owner` with `members` in it, joined through requests and accepted. */
    async groupWith(owner: User, name: string, members: User[]): Promise<{ id: string; code: string }> {
      const group = await client.createGroup(owner, name);
      for (const member of members) {
        await client.askToJoin(member, group.code);
        await client.answer(owner, group.id, member, 'accept');
      }
      return group;
    },

    async block(user: User, other: User): Promise<void> {
      await ok(user, 'PUT', '/api/profile/blockUser/', { blockedUser: { _id: other.id } });
    },

    async hide(user: User, postId: string): Promise<void> {
      await ok(user, 'PUT', `/api/posts/hidePost/${postId}`, {});
    },

    async setInApp(user: User, type: NotificationType, inApp: boolean): Promise<void> {
      await ok(user, 'PUT', '/api/notifications/preferences', {
        preferences: { [type]: { inApp, push: true } },
      });
    },
  };
  return client;
}

/** Who an entry names, by id, newest first. */
export const actorIds = (n: Notification | undefined): string[] => (n?.actors ?? []).map((a) => a._id);
