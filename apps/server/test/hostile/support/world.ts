import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { CommentsResponse, CreateGroupResponse, Post } from '@cats/contracts';
import type { TestApp } from '../../build-app.ts';
import { authHeader, createUser, type CreatedUser } from '../../factories.ts';
import { multipartBody } from '../../fixtures/images.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Limits high enough that a suite of thousands of requests from one address is never throttled. */
export const NO_RATE_LIMITS = {
  RATE_LIMIT_LOGIN_PER_MINUTE: '1000000',
  RATE_LIMIT_SIGNUP_PER_MINUTE: '1000000',
  RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
  RATE_LIMIT_UPLOADS_PER_MINUTE: '1000000',
};

/** A small, real JPEG whose bytes depend on the seed. */
export async function smallJpeg(seed: number, size = 48): Promise<Buffer> {
  const pixels = Buffer.alloc(size * size * 3);
  let state = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < pixels.length; i += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    pixels[i] = state >>> 24;
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

export async function call(
  app: FastifyInstance,
  headers: Record<string, string>,
  method: Method,
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

export async function uploadPost(
  app: FastifyInstance,
  headers: Record<string, string>,
  image: Buffer,
  fields: Record<string, string> = {
    comment: 'A cat on a wall',
    showLocation: 'true',
    latitude: '51.5',
    longitude: '-0.12',
  },
): Promise<Post> {
  const body = multipartBody(fields, { name: 'cat.jpg', type: 'image/jpeg', data: image });
  const res = await app.inject({
    method: 'POST',
    url: '/api/posts/createPost',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { post: Post }).post;
}

export async function addComment(
  app: FastifyInstance,
  headers: Record<string, string>,
  postId: string,
  text: string,
): Promise<string> {
  const res = await call(app, headers, 'POST', `/api/posts/createComment/${postId}`, { newComment: text });
  expect(res.statusCode, res.body).toBe(200);
  const comments = (res.json() as CommentsResponse).comments;
  return comments.find((c) => c.comment === text)!._id;
}

export async function createGroup(
  app: FastifyInstance,
  headers: Record<string, string>,
  name: string,
): Promise<{ _id: string; code: string }> {
  const res = await call(app, headers, 'POST', '/api/groups/createGroup', { submitData: name });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as CreateGroupResponse).group;
}

export interface Actor {
  user: CreatedUser;
  headers: Record<string, string>;
}

export async function actor(app: FastifyInstance, t: TestApp): Promise<Actor> {
  const user = await createUser(t.db);
  return { user, headers: await authHeader(app, user.id) };
}

/**
 * The hostile suites' world: the caller A with a real post (files on disk), a comment and a group; B
 * with the same (someone else's ids); C, a bystander to block.
 */
export interface World {
  a: Actor;
  b: Actor;
  c: Actor;
  aPost: Post;
  bPost: Post;
  aComment: string;
  bComment: string;
  aGroup: { _id: string; code: string };
  bGroup: { _id: string; code: string };
  /** Cats whose sightings are aPost and bPost (issue 26), made by a and b. */
  aCat: string;
  bCat: string;
}

/** A cat made through the API by `headers`' user, with their post as its first sighting. */
export async function createCatOf(
  app: FastifyInstance,
  headers: Record<string, string>,
  name: string,
  postId: string,
): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/cats', headers, payload: { name, postId } });
  if (res.statusCode !== 201 && res.statusCode !== 200)
    throw new Error(`createCat: ${res.statusCode} ${res.body}`);
  return (res.json() as { cat: { _id: string } }).cat._id;
}

/**
 * Makes a world's user a moderator (issue 27), for the walks over every route: the moderation routes
 * refuse members before reading anything, so only a moderator reaches what they answer.
 */
export async function makeModerator(t: TestApp, userId: string): Promise<void> {
  await t.db.execute(sql`update users set role = 'moderator' where id = ${userId}`);
}

export async function buildWorld(t: TestApp): Promise<World> {
  const [a, b, c] = [await actor(t.app, t), await actor(t.app, t), await actor(t.app, t)];
  const aPost = await uploadPost(t.app, a.headers, await smallJpeg(1));
  const bPost = await uploadPost(t.app, b.headers, await smallJpeg(2));
  const aComment = await addComment(t.app, a.headers, aPost._id, 'My own cat');
  const bComment = await addComment(t.app, b.headers, bPost._id, 'Mine too');
  const aGroup = await createGroup(t.app, a.headers, 'A street');
  const bGroup = await createGroup(t.app, b.headers, 'B street');
  const aCat = await createCatOf(t.app, a.headers, 'Luna', aPost._id);
  const bCat = await createCatOf(t.app, b.headers, 'Tom', bPost._id);
  return { a, b, c, aPost, bPost, aComment, bComment, aGroup, bGroup, aCat, bCat };
}
