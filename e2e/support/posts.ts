import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { PagedPostsResponse, Post } from '@cats/contracts';
import { apiLogin, signUp, newUser, type TestUser } from './api.ts';
import { ROOT } from './server.ts';

/** Photos the posts module's API tests use too (apps/server/test/fixtures/make-fixtures.ts). */
export const FIXTURES = join(ROOT, 'apps', 'server', 'test', 'fixtures', 'images');
export const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));
/** photo-gps.jpg was taken in Málaga. */
export const FIXTURE_GPS = { latitude: 36.7213, longitude: -4.4214 };

export interface SessionUser extends TestUser {
  userId: string;
  accessToken: string;
}

/** A fresh user, signed up and logged in through the API. */
export async function apiUser(baseUrl: string, prefix: string): Promise<SessionUser> {
  const user = await signUp(baseUrl, newUser(prefix));
  const { accessToken, userId } = await apiLogin(baseUrl, user.email, user.password);
  return { ...user, userId, accessToken };
}

export async function apiCall<T>(
  baseUrl: string,
  token: string,
  path: string,
  init: RequestInit = {},
): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body && !(init.body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Creates a post through the API (as the Spot screen would, minus the browser). */
export async function apiCreatePost(
  baseUrl: string,
  token: string,
  opts: {
    image?: Buffer;
    comment?: string;
    catName?: string;
    location?: { latitude: number; longitude: number } | null;
    showLocation?: boolean;
    /** A cat to link the post to from the start, as 'Which cat is this?' does (issue 26). */
    catId?: string;
  } = {},
): Promise<Post> {
  const form = new FormData();
  form.append('comment', opts.comment ?? '');
  if (opts.catName) form.append('catName', opts.catName);
  if (opts.catId) form.append('catId', opts.catId);
  form.append('latitude', opts.location ? String(opts.location.latitude) : '');
  form.append('longitude', opts.location ? String(opts.location.longitude) : '');
  form.append('showLocation', String(opts.showLocation ?? true));
  form.append('exifData', '{}');
  form.append(
    'file',
    new Blob([new Uint8Array(opts.image ?? fixture('photo-no-gps.jpg'))], { type: 'image/jpeg' }),
    'cat.jpg',
  );
  const res = await fetch(`${baseUrl}/api/posts/createPost`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`createPost: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { post: Post }).post;
}

/** Every post of the feed as the API pages it (cursor after page 1). */
export async function apiWholeFeed(baseUrl: string, token: string): Promise<Post[]> {
  const out: Post[] = [];
  let page = 1;
  let cursor: string | null = null;
  for (;;) {
    const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
    const body: PagedPostsResponse = await apiCall(baseUrl, token, `/api/feed/${page}${query}`);
    out.push(...body.posts);
    if (!body.info.next) return out;
    page = body.info.next;
    cursor = body.info.nextCursor;
  }
}

/** Ids of the post cards on screen, top to bottom. */
export const cardIds = (page: Page): Promise<string[]> =>
  page
    .locator('article[data-post-id]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-post-id') ?? ''));

export const card = (page: Page, postId: string) => page.locator(`article[data-post-id="${postId}"]`);
