import type { FastifyRequest } from 'fastify';
import { finished } from 'node:stream/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IDEMPOTENT_REPLAYED_HEADER,
  createPostHeadersSchema,
  createPostResponseSchema,
  deletePostResponseSchema,
  editPostRequestSchema,
  editPostResponseSchema,
  errorResponseSchema,
  feedQuerySchema,
  isUuid,
  pageNumberSchema,
  pagedPostsResponseSchema,
  postDetailSchema,
  postHistoryResponseSchema,
  restorePostResponseSchema,
  trashResponseSchema,
  type Post,
} from '@cats/contracts';
import { HttpError, badRequest, notFound } from '../../lib/http-errors.ts';
import { FILE_TOO_LARGE_MESSAGE, type SpooledFile, type UploadSpool } from '../../media/upload-spool.ts';
import { assertNotDemo, caller, requireAuth } from '../../plugins/auth.ts';
import { listPosts } from './post-view.ts';
import { findVisibleUser } from './posts.repository.ts';
import {
  type CatLinks,
  POST_CREATED_MESSAGE,
  createPost,
  getPost,
  idempotencyKeyOf,
} from './posts.service.ts';
import { deletePost, listTrash, restorePost } from './trash.service.ts';
import { editPost, getPostHistory } from './edit.service.ts';

export const USER_NOT_FOUND_MESSAGE = 'User not found';

const security = [{ bearer: [] }];
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema };

/**
 * Reads the multipart body: the one image into a temporary file (at most 15 MB, the multipart plugin's
 * limit) and the fields. The caller discards the file; when reading fails, it is discarded here.
 */
async function readUpload(request: FastifyRequest, spool: UploadSpool) {
  if (!request.isMultipart()) throw badRequest('Expected multipart/form-data with an image file');
  const fields: Record<string, string> = {};
  let file: SpooledFile | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === 'file' && !file) {
          file = await spool.receive(part.file);
        } else {
          // Any other file is read past and dropped, as the form's extra fields are.
          part.file.resume();
          await finished(part.file);
        }
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    await spool.discard(file);
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, FILE_TOO_LARGE_MESSAGE);
    if (code === 'FST_FILES_LIMIT') throw badRequest('Send one image file');
    throw err;
  }
  return { file, fields };
}

export const postsRoutes: FastifyPluginAsyncZod<{ catLinks: CatLinks }> = async (app, { catLinks }) => {
  const publicBase = app.config.S3_PUBLIC_URL;

  app.post(
    '/posts/createPost',
    {
      onRequest: [requireAuth],
      schema: {
        tags: ['posts'],
        summary: 'Spot a cat: upload a JPEG or PNG photo with caption, cat name and location',
        description:
          'multipart/form-data: file (JPEG or PNG, at most 15 MB and 40 megapixels), catName, comment, ' +
          'altText (the photo described for people who cannot see it, at most 1,500 characters), ' +
          'latitude, longitude, showLocation ("true"/"false"), exifData (JSON text), groupIds (JSON array ' +
          'of group ids the caller belongs to). When no coordinates are sent, GPS is read from the photo. ' +
          'With an Idempotency-Key header, a retry of the same sighting within 24 hours answers with the ' +
          'post the first request made (201, the same body, Idempotent-Replayed: true) and stores nothing; ' +
          'the same key with a different picture or fields is refused (422); ' +
          'the same key from another user is another key.',
        consumes: ['multipart/form-data'],
        security,
        headers: createPostHeadersSchema,
        response: {
          201: createPostResponseSchema,
          ...errors,
          409: errorResponseSchema,
          413: errorResponseSchema,
          415: errorResponseSchema,
          422: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const viewer = assertNotDemo(request);
      const { file, fields } = await readUpload(request, app.uploads);
      let created: { post: Post; replayed: boolean };
      try {
        created = await createPost(
          { db: app.database.db, storage: app.storage, publicBase, catLinks, events: app.events },
          viewer,
          file,
          fields,
          idempotencyKeyOf(request.headers['idempotency-key']),
        );
      } finally {
        await app.uploads.discard(file);
      }
      // A replay answers as the first request did (Stripe's rule), marked so a client can tell.
      if (created.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return reply.status(201).send({ message: POST_CREATED_MESSAGE, post: created.post });
    },
  );

  app.get(
    '/feed/:page',
    {
      onRequest: [requireAuth],
      schema: {
        tags: ['posts'],
        summary: 'The feed, newest first; page numbers from 1, or the keyset cursor of info.nextCursor',
        security,
        params: z.object({ page: pageNumberSchema }),
        querystring: feedQuerySchema,
        response: { 200: pagedPostsResponseSchema, ...errors },
      },
    },
    async (request) =>
      listPosts(
        app.database.db,
        caller(request),
        {},
        {
          page: request.params.page,
          pageSize: app.config.FEED_PAGE_SIZE,
          cursor: request.query.cursor,
          publicBase,
        },
      ),
  );

  // Beside the static /posts/createPost, /posts/likePost/:postId, ...: find-my-way tries static segments
  // first, so those keep their routes and this one takes only a single segment after /posts/.
  app.get(
    '/posts/:postId',
    {
      onRequest: [requireAuth],
      schema: {
        tags: ['posts'],
        summary: "One post in the feed's shape, with what the viewer may do with it (the post page)",
        security,
        params: z.object({ postId: z.string() }),
        response: { 200: postDetailSchema, ...errors, 404: errorResponseSchema },
      },
    },
    async (request) => getPost({ db: app.database.db, publicBase }, caller(request), request.params.postId),
  );

  const profilePostsQuery = feedQuerySchema.extend({
    user: z.string().max(100),
    pagenum: pageNumberSchema.default(1),
    /** Sent by the spec's client on others' profiles; ignored (the viewer comes from the token). */
    currentUserId: z.string().max(100).optional(),
  });
  for (const url of ['/profile/getPosts', '/profile/getPosts/']) {
    app.get(
      url,
      {
        onRequest: [requireAuth],
        schema: {
          tags: ['profiles'],
          summary: "One user's posts, newest first, paged like the feed",
          security,
          hide: url.endsWith('/'),
          querystring: profilePostsQuery,
          response: { 200: pagedPostsResponseSchema, ...errors, 404: errorResponseSchema },
        },
      },
      async (request) => {
        const { user, pagenum, cursor } = request.query;
        const viewer = caller(request);
        // Blocked either way is the same 404 as an unknown user, not an empty list (issue 23).
        const author = isUuid(user) ? await findVisibleUser(app.database.db, user, viewer.userId) : null;
        if (!author) throw notFound(USER_NOT_FOUND_MESSAGE);
        return listPosts(
          app.database.db,
          viewer,
          { authorId: author.id },
          { page: pagenum, pageSize: app.config.FEED_PAGE_SIZE, cursor, publicBase },
        );
      },
    );
  }

  // The trash (issue 24): a deleted post waits 30 days there before the daily sweep purges it.
  const trashDeps = { db: app.database.db, publicBase };
  const postIdParams = z.object({ postId: z.string().max(100) });

  app.delete(
    '/posts/:postId',
    {
      onRequest: [requireAuth],
      schema: {
        tags: ['posts'],
        summary: "Delete one's own post: it goes to the trash, from which it can be restored for 30 days",
        security,
        params: postIdParams,
        response: { 200: deletePostResponseSchema, ...errors, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const viewer = assertNotDemo(request);
      return deletePost(trashDeps, viewer, request.params.postId);
    },
  );

  app.get(
    '/posts/trash',
    {
      onRequest: [requireAuth],
      schema: {
        tags: ['posts'],
        summary: "The caller's deleted posts, newest deletion first (at most 500), each with its purge date",
        security,
        response: { 200: trashResponseSchema, ...errors },
      },
    },
    async (request) => listTrash(trashDeps, caller(request)),
  );

  app.post(
    '/posts/:postId/restore',
    {
      onRequest: [requireAuth],
      schema: {
        tags: ['posts'],
        summary: "Restore a post from the caller's trash, as it was (likes, comments and group shares kept)",
        security,
        params: postIdParams,
        response: { 200: restorePostResponseSchema, ...errors, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const viewer = assertNotDemo(request);
      return restorePost(trashDeps, viewer, request.params.postId);
    },
  );

  // Edits (issue 24): the owner changes the text, every earlier version stays readable; and the place
  // (issue 26), which keeps no versions: the history is public to the post's viewers.
  app.patch(
    '/posts/:postId',
    {
      onRequest: [requireAuth],
      schema: {
        tags: ['posts'],
        summary:
          "Edit one's own post: caption, cat name, description (alt text) and location; empty clears the name and description, null coordinates the location",
        security,
        params: postIdParams,
        body: editPostRequestSchema,
        response: {
          200: editPostResponseSchema,
          ...errors,
          404: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const viewer = assertNotDemo(request);
      return editPost(trashDeps, viewer, request.params.postId, request.body);
    },
  );

  app.get(
    '/posts/:postId/history',
    {
      onRequest: [requireAuth],
      schema: {
        tags: ['posts'],
        summary: "A post's versions, newest first with the current one, for whoever can see the post",
        security,
        params: postIdParams,
        response: { 200: postHistoryResponseSchema, ...errors, 404: errorResponseSchema },
      },
    },
    async (request) => getPostHistory(trashDeps, caller(request), request.params.postId),
  );
};
