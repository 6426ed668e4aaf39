import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createGroupRequestSchema,
  createGroupResponseSchema,
  errorResponseSchema,
  groupDetailSchema,
  groupMapResponseSchema,
  groupParamsSchema,
  groupPostsQuerySchema,
  groupsResponseSchema,
  groupUpdateResponseSchema,
  groupUserParamsSchema,
  joinGroupRequestSchema,
  messageResponseSchema,
  ownJoinRequestsResponseSchema,
  pagedPostsResponseSchema,
  regenerateCodeResponseSchema,
  removeMemberResponseSchema,
  sharePostRequestSchema,
  sharePostResponseSchema,
} from '@cats/contracts';
import { assertNotDemo, caller, requireAuth } from '../../plugins/auth.ts';
import { sharedRedis } from '../../lib/redis.ts';
import * as groups from './groups.service.ts';
import { memoryJoinThrottle, redisJoinThrottle } from './join-throttle.ts';

const security = [{ bearer: [] }];
const tags = ['groups'];

/** Spec section 6: the demo account may look at groups but every write is refused, before the body is read. */
async function refuseDemo(request: FastifyRequest) {
  assertNotDemo(request);
}

/** Groups, join requests, the group's pictures and map, and sharing posts with groups (issue 7). */
export const groupsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  const redisUrl = app.config.REDIS_URL;
  const deps: groups.GroupsDeps = {
    db: app.database.db,
    publicBase: app.config.S3_PUBLIC_URL,
    events: app.events,
    // Shared by every instance through Redis when configured, like the other rate limits.
    joinThrottle: redisUrl ? redisJoinThrottle(sharedRedis(redisUrl)) : memoryJoinThrottle(),
  };

  app.get(
    '/groups',
    {
      schema: {
        tags,
        security,
        summary: "The caller's groups: owned, and the others they belong to",
        response: { 200: groupsResponseSchema },
      },
    },
    async (request) => groups.listGroups(deps, caller(request)),
  );

  app.post(
    '/groups/createGroup',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary: 'Create a group (submitData: its name, at most 20 characters); the caller owns it',
        body: createGroupRequestSchema,
        response: { 200: createGroupResponseSchema },
      },
    },
    async (request) => groups.createGroup(deps, caller(request), request.body.submitData),
  );

  app.post(
    '/groups/joinGroup',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary:
          "Ask to join a group by its code (submitData); the group's owner accepts or declines. " +
          'Case, spaces and dashes do not matter; after 10 wrong codes in 10 minutes from an account ' +
          'or an address every attempt answers 429 with Retry-After until the window ends',
        body: joinGroupRequestSchema,
        response: { 200: messageResponseSchema, 400: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request) => groups.requestToJoin(deps, caller(request), request.body.submitData, request.ip),
  );

  app.get(
    '/groups/requests',
    {
      schema: {
        tags,
        security,
        summary: "The caller's own join requests that the groups' owners have not answered yet",
        response: { 200: ownJoinRequestsResponseSchema },
      },
    },
    async (request) => groups.listOwnRequests(deps, caller(request)),
  );

  app.delete(
    '/groups/:groupId/request',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary:
          "Cancel the caller's own pending request to join the group; the owner's notification about it goes too",
        params: groupParamsSchema,
        response: { 200: messageResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => groups.cancelRequest(deps, caller(request), request.params.groupId),
  );

  app.get(
    '/groups/:groupId',
    {
      schema: {
        tags,
        security,
        summary: 'A group, its members and (for the owner) pending join requests; members only',
        params: groupParamsSchema,
        response: { 200: groupDetailSchema },
      },
    },
    async (request) => groups.getGroup(deps, caller(request), request.params.groupId),
  );

  for (const answer of ['accept', 'decline'] as const) {
    app.post(
      `/groups/:groupId/requests/:userId/${answer}`,
      {
        onRequest: refuseDemo,
        schema: {
          tags,
          security,
          summary: `${answer === 'accept' ? 'Accept' : 'Decline'} a join request (owner)`,
          params: groupUserParamsSchema,
          response: { 200: groupUpdateResponseSchema },
        },
      },
      async (request) =>
        groups.answerRequest(deps, caller(request), request.params.groupId, request.params.userId, answer),
    );
  }

  app.delete(
    '/groups/:groupId/members/:userId',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary: 'Remove a member (owner), or leave the group (a member removing themself)',
        params: groupUserParamsSchema,
        response: { 200: removeMemberResponseSchema },
      },
    },
    async (request) =>
      groups.removeMember(deps, caller(request), request.params.groupId, request.params.userId),
  );

  app.post(
    '/groups/:groupId/code',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary: 'Give the group a new join code (owner); the old code stops working',
        params: groupParamsSchema,
        response: { 200: regenerateCodeResponseSchema },
      },
    },
    async (request) => groups.regenerateCode(deps, caller(request), request.params.groupId),
  );

  app.delete(
    '/groups/:groupId',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary: 'Delete the group (owner); the posts shared with it stay with their owners',
        params: groupParamsSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => groups.deleteGroup(deps, caller(request), request.params.groupId),
  );

  app.get(
    '/groups/:groupId/posts',
    {
      schema: {
        tags,
        security,
        summary: "The group's pictures, newest first, with exact locations (members only)",
        params: groupParamsSchema,
        querystring: groupPostsQuerySchema,
        response: { 200: pagedPostsResponseSchema },
      },
    },
    async (request) =>
      groups.groupPosts(deps, caller(request), request.params.groupId, {
        cursor: request.query.cursor,
        page: request.query.page,
      }),
  );

  app.get(
    '/groups/:groupId/map',
    {
      schema: {
        tags,
        security,
        summary: "The group's located pictures for its map, exact locations (members only)",
        params: groupParamsSchema,
        response: { 200: groupMapResponseSchema },
      },
    },
    async (request) => groups.groupMap(deps, caller(request), request.params.groupId),
  );

  app.put(
    '/posts/:postId/groups',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary: "Share the caller's own post with exactly these groups (empty: share with none)",
        params: z.object({ postId: z.string() }),
        body: sharePostRequestSchema,
        response: { 200: sharePostResponseSchema },
      },
    },
    async (request) =>
      groups.setPostGroups(deps, caller(request), request.params.postId, request.body.groupIds),
  );
};
