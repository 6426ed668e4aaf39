import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  blockedUsersResponseSchema,
  blockUserRequestSchema,
  commentsQuerySchema,
  commentsResponseSchema,
  createCommentRequestSchema,
  hiddenPostsQuerySchema,
  ignoredCurrentUserBodySchema,
  likeResponseSchema,
  likersQuerySchema,
  likersResponseSchema,
  messageResponseSchema,
  pagedPostsResponseSchema,
  toggleLocationResponseSchema,
} from '@cats/contracts';
import { assertNotDemo, caller, requireAuth } from '../../plugins/auth.ts';
import * as social from './social.service.ts';

const security = [{ bearer: [] }];
const postParams = z.object({ postId: z.string() });
const commentParams = z.object({ commentId: z.string() });
const userParams = z.object({ userId: z.string() });

/** Spec section 6: the demo account may not comment, hide or block. Refused before the body is read. */
async function refuseDemo(request: FastifyRequest) {
  assertNotDemo(request);
}

/** Likes, comments, hiding, blocking and the location toggle (issue 5 points 1 to 4). */
export const socialRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  const deps: social.SocialDeps = { db: app.database.db, publicBase: app.config.S3_PUBLIC_URL };

  app.put(
    '/posts/likePost/:postId',
    {
      schema: {
        tags: ['social'],
        security,
        summary: "Toggle the caller's like",
        params: postParams,
        body: ignoredCurrentUserBodySchema,
        response: { 200: likeResponseSchema },
      },
    },
    async (request) => ({
      updatedPost: await social.toggleLike(deps, caller(request), request.params.postId),
    }),
  );

  app.get(
    '/posts/getComments/:postId',
    {
      schema: {
        tags: ['social'],
        security,
        summary: "A page of a post's comments: the newest 20, or the 20 before ?before= (oldest first)",
        params: postParams,
        querystring: commentsQuerySchema,
        response: { 200: commentsResponseSchema },
      },
    },
    async (request) => social.getComments(deps, caller(request), request.params.postId, request.query.before),
  );

  app.get(
    '/posts/:postId/likes',
    {
      schema: {
        tags: ['social'],
        security,
        summary: 'Who liked a post, newest like first, 20 a page (?cursor= from info.nextCursor)',
        params: postParams,
        querystring: likersQuerySchema,
        response: { 200: likersResponseSchema },
      },
    },
    async (request) => social.likers(deps, caller(request), request.params.postId, request.query.cursor),
  );

  app.post(
    '/posts/createComment/:postId',
    {
      onRequest: refuseDemo,
      schema: {
        tags: ['social'],
        security,
        summary: 'Add a comment; answers the newest page of comments',
        params: postParams,
        body: createCommentRequestSchema,
        response: { 200: commentsResponseSchema },
      },
    },
    async (request) =>
      social.createComment(deps, caller(request), request.params.postId, request.body.newComment),
  );

  app.delete(
    '/posts/comments/:commentId',
    {
      schema: {
        tags: ['social'],
        security,
        summary: "Delete a comment (its author or the post's owner); answers the newest page of comments",
        params: commentParams,
        response: { 200: commentsResponseSchema },
      },
    },
    async (request) => social.deleteComment(deps, caller(request), request.params.commentId),
  );

  app.put(
    '/posts/hidePost/:postId',
    {
      onRequest: refuseDemo,
      schema: {
        tags: ['social'],
        security,
        summary: "Hide a post from the caller's lists",
        params: postParams,
        body: ignoredCurrentUserBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await social.hidePost(deps, caller(request), request.params.postId);
      return { message: social.SOCIAL_MESSAGES.postHidden };
    },
  );

  app.delete(
    '/posts/hidePost/:postId',
    {
      onRequest: refuseDemo,
      schema: {
        tags: ['social'],
        security,
        summary: 'Unhide a post (undo of hidePost); idempotent',
        params: postParams,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await social.unhidePost(deps, caller(request), request.params.postId);
      return { message: social.SOCIAL_MESSAGES.postUnhidden };
    },
  );

  app.get(
    '/profile/hiddenPosts',
    {
      schema: {
        tags: ['social'],
        security,
        summary: 'The posts the caller hid, newest hide first, paged like the feed',
        querystring: hiddenPostsQuerySchema,
        response: { 200: pagedPostsResponseSchema },
      },
    },
    async (request) =>
      social.hiddenPosts(deps, caller(request), {
        page: request.query.page,
        pageSize: app.config.FEED_PAGE_SIZE,
        cursor: request.query.cursor,
      }),
  );

  app.put(
    '/posts/toggleLocation/:postId',
    {
      schema: {
        tags: ['social'],
        security,
        summary: "Show or hide the location of one's own post",
        params: postParams,
        body: ignoredCurrentUserBodySchema,
        response: { 200: toggleLocationResponseSchema },
      },
    },
    async (request) => ({
      updatedPost: await social.toggleLocation(deps, caller(request), request.params.postId),
    }),
  );

  // The spec calls PUT api/profile/blockUser/ with a trailing slash; both spellings are served.
  for (const url of ['/profile/blockUser/', '/profile/blockUser']) {
    app.put(
      url,
      {
        onRequest: refuseDemo,
        schema: {
          tags: ['social'],
          security,
          summary: 'Block a user: neither sees the other any more',
          hide: url === '/profile/blockUser',
          body: blockUserRequestSchema,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => {
        await social.blockUser(deps, caller(request), request.body.blockedUser._id);
        return { message: social.SOCIAL_MESSAGES.userBlocked };
      },
    );
  }

  app.get(
    '/profile/blockedUsers',
    {
      schema: {
        tags: ['social'],
        security,
        summary: 'Users the caller blocked',
        response: { 200: blockedUsersResponseSchema },
      },
    },
    async (request) => ({ blockedUsers: await social.blockedUsers(deps, caller(request)) }),
  );

  app.delete(
    '/profile/blockUser/:userId',
    {
      onRequest: refuseDemo,
      schema: {
        tags: ['social'],
        security,
        summary: 'Unblock a user; answers the updated list',
        params: userParams,
        response: { 200: blockedUsersResponseSchema },
      },
    },
    async (request) => ({
      blockedUsers: await social.unblockUser(deps, caller(request), request.params.userId),
    }),
  );
};
