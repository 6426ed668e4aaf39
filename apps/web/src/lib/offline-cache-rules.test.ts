import { describe, expect, it } from 'vitest';
import { isCachedApiRequest, isCachedMediaRequest } from './offline-cache-rules.ts';

const ORIGIN = 'https://cats.example';
const at = (path: string) => new URL(path, ORIGIN);

describe('what the service worker keeps offline', () => {
  it.each([
    '/api/feed/1',
    '/api/feed/3?cursor=abc',
    '/api/posts/p1',
    '/api/posts/getComments/p1',
    '/api/profile/getMyProfile',
    '/api/profile/getUserProfile/u1',
    '/api/profile/getPosts/?userId=u1&page=2',
    '/api/cats/missing?limit=3',
    '/api/cats/c1',
    '/api/cats/c1/sightings?page=1',
  ])('keeps GET %s, a page the person saw', (path) => {
    expect(isCachedApiRequest('GET', at(path), ORIGIN)).toBe(true);
  });

  it.each([
    '/api/login',
    '/api/refresh',
    '/api/logout',
    '/api/signup',
    '/api/notifications/stream?ticket=t',
    '/api/notifications/unread-count',
    '/api/profile/export',
    '/api/profile/settings/email',
    '/api/explore/clusters/3',
    '/api/posts/p1/history',
  ])('never keeps GET %s', (path) => {
    expect(isCachedApiRequest('GET', at(path), ORIGIN)).toBe(false);
  });

  it('never keeps a write, even to a path it would read from cache', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(isCachedApiRequest(method, at('/api/posts/p1'), ORIGIN)).toBe(false);
      expect(isCachedMediaRequest(method, at('/media/posts/ab/640.webp'), ORIGIN)).toBe(false);
    }
  });

  it("keeps the app's own photos but not another site's", () => {
    expect(isCachedMediaRequest('GET', at('/media/posts/ab/640.webp'), ORIGIN)).toBe(true);
    expect(isCachedMediaRequest('GET', new URL('https://s3.example/media/posts/ab/640.webp'), ORIGIN)).toBe(
      false,
    );
    expect(isCachedApiRequest('GET', new URL('https://other.example/api/feed/1'), ORIGIN)).toBe(false);
  });
});
