import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, NO_SERVER_RESPONSE, onSessionExpired } from './api-client.ts';
import { authStore } from './auth-store.ts';

/** What the server answers for a bad or expired access token (docs/decisions/003). */
const tokenProblem = () =>
  json(403, { message: 'Forbidden' }, { 'www-authenticate': 'Bearer error="invalid_token"' });

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

type Handler = (path: string, init: RequestInit) => Response | Promise<Response>;

/** Stubs fetch; records every call's path and bearer token. */
function serve(handler: Handler) {
  const calls: { path: string; token: string | null }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input);
    const auth = (init.headers as Record<string, string> | undefined)?.authorization ?? null;
    calls.push({ path, token: auth?.replace(/^Bearer /, '') ?? null });
    return handler(path, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

describe('api client', () => {
  let expired: ReturnType<typeof vi.fn<() => void>>;
  let unsubscribe: () => void;

  beforeEach(() => {
    authStore.set({ accessToken: 'old-token', userId: 'u1', email: null });
    expired = vi.fn<() => void>();
    unsubscribe = onSessionExpired(expired);
  });
  afterEach(() => {
    unsubscribe();
    authStore.clear();
    vi.unstubAllGlobals();
  });

  it('sends the access token from memory and parses the JSON answer', async () => {
    const calls = serve(() => json(200, { ok: true }));
    await expect(api('/api/feed/1')).resolves.toEqual({ ok: true });
    expect(calls).toEqual([{ path: '/api/feed/1', token: 'old-token' }]);
  });

  it("asks for the server's messages in the screens' language, whatever the browser prefers", async () => {
    const languages: (string | undefined)[] = [];
    serve((_path, init) => {
      languages.push((init.headers as Record<string, string>)['accept-language']);
      return json(400, { message: 'Caption too long' });
    });
    await expect(api('/api/posts/createPost', { method: 'POST', body: {} })).rejects.toThrow(
      'Caption too long',
    );
    await api('/api/feed/1').catch(() => undefined);
    expect(languages).toEqual(['en', 'en']);
  });

  it('refreshes once on an invalid-token 403 and retries with the new token', async () => {
    const calls = serve((path, init) => {
      if (path === '/api/refresh') return json(200, { accessToken: 'new-token', userId: 'u1' });
      const auth = (init.headers as Record<string, string>).authorization;
      return auth === 'Bearer new-token' ? json(200, { posts: [] }) : tokenProblem();
    });
    await expect(api('/api/feed/1')).resolves.toEqual({ posts: [] });
    expect(calls.map((c) => `${c.path} ${c.token}`)).toEqual([
      '/api/feed/1 old-token',
      '/api/refresh null',
      '/api/feed/1 new-token',
    ]);
    expect(authStore.get().accessToken).toBe('new-token');
    expect(expired).not.toHaveBeenCalled();
  });

  it('shares one refresh between requests that fail at the same time', async () => {
    const calls = serve(async (path, init) => {
      if (path === '/api/refresh') {
        await new Promise((r) => setTimeout(r, 20));
        return json(200, { accessToken: 'new-token', userId: 'u1' });
      }
      const auth = (init.headers as Record<string, string>).authorization;
      return auth === 'Bearer new-token' ? json(200, { path }) : tokenProblem();
    });
    const answers = await Promise.all(['/api/a', '/api/b', '/api/c'].map((p) => api<{ path: string }>(p)));
    expect(answers.map((a) => a.path)).toEqual(['/api/a', '/api/b', '/api/c']);
    expect(calls.filter((c) => c.path === '/api/refresh')).toHaveLength(1);
  });

  it('does not refresh on a permission refusal, and reports its message', async () => {
    const calls = serve(() => json(403, { message: 'Feature disabled for demo user' }));
    const err = await api('/api/posts/hidePost/p1', { method: 'PUT' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 403, message: 'Feature disabled for demo user' });
    expect(calls).toHaveLength(1);
    expect(authStore.get().accessToken).toBe('old-token');
  });

  it('ends the session when the refresh is refused', async () => {
    serve((path) => (path === '/api/refresh' ? json(403, { message: 'Forbidden' }) : tokenProblem()));
    await expect(api('/api/feed/1')).rejects.toMatchObject({
      status: 403,
      message: 'Your session has expired, please log in again',
    });
    expect(authStore.get().accessToken).toBeNull();
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('ends the session when the retried request still has a token problem', async () => {
    serve((path) =>
      path === '/api/refresh' ? json(200, { accessToken: 'new-token', userId: 'u1' }) : tokenProblem(),
    );
    await expect(api('/api/feed/1')).rejects.toMatchObject({ status: 403 });
    expect(authStore.get().accessToken).toBeNull();
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it("keeps the session when the server can't be reached, and says 'No Server Response'", async () => {
    serve(() => {
      throw new TypeError('fetch failed');
    });
    await expect(api('/api/feed/1')).rejects.toMatchObject({ status: null, message: NO_SERVER_RESPONSE });
    expect(authStore.get().accessToken).toBe('old-token');
    expect(expired).not.toHaveBeenCalled();
  });

  it('lets an aborted request end as an AbortError, not as a server problem', async () => {
    serve((_path, init) => {
      if (init.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
      return json(200, {});
    });
    const controller = new AbortController();
    controller.abort();
    await expect(api('/api/feed/1', { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('sends no token and never refreshes for anonymous calls such as login', async () => {
    const calls = serve(() => json(401, { message: 'Unauthorized' }));
    await expect(
      api('/api/login', { method: 'POST', body: { email: 'a@b.c', password: 'x' }, anonymous: true }),
    ).rejects.toMatchObject({ status: 401, message: 'Unauthorized' });
    expect(calls).toEqual([{ path: '/api/login', token: null }]);
  });

  it('keeps the session when the refresh itself cannot reach the server (issue 28: offline reload)', async () => {
    serve((path) => {
      if (path === '/api/refresh') throw new TypeError('Failed to fetch');
      return tokenProblem();
    });
    const failure = await api('/api/feed/1').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: null, message: NO_SERVER_RESPONSE });
    expect(expired).not.toHaveBeenCalled();
    expect(authStore.get().userId).toBe('u1');
  });
});
