import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module for each test: its state is per page load. */
async function load() {
  vi.resetModules();
  return import('./early-requests.ts');
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const variants = {
  '300': '/media/posts/a/300.webp',
  '400': '/media/posts/a/400.webp',
  '800': '/media/posts/a/800.webp',
  '1600': '/media/posts/a/1600.webp',
};
const feedPage = {
  posts: [{ _id: 'p1', image: { width: 1200, height: 900, placeholder: '', variants } }],
  info: { next: null, nextCursor: null },
};

/** Missing cats near the viewer (issue 26), asked beside the first page. */
const missingNear = { alerts: [], area: 'home' };

let calls: { path: string; authorization: string | null }[];
function serve(answer: (path: string) => Response | Promise<Response>) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = String(input);
      const headers = (init.headers ?? {}) as Record<string, string>;
      calls.push({ path, authorization: headers.authorization ?? null });
      return answer(path);
    }),
  );
}

beforeEach(() => {
  document.head.innerHTML = '';
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('early requests (boot.ts)', () => {
  it('on /feed: one refresh, then the first page and the missing cats near the viewer with its token, and a preload of its first photo', async () => {
    serve((path) =>
      path === '/api/refresh'
        ? json(200, { accessToken: 'tok', userId: 'u1' })
        : path === '/api/cats/missing?limit=3'
          ? json(200, missingNear)
          : json(200, feedPage),
    );
    const early = await load();
    early.startEarlyRequests('/feed', true);
    const refresh = await early.takeRefresh();
    expect(await refresh.json()).toEqual({ accessToken: 'tok', userId: 'u1' });
    expect(await early.takeEarlyFeed()).toEqual(feedPage);
    expect(await early.takeEarlyMissingNear()).toEqual(missingNear);
    expect(calls).toEqual([
      { path: '/api/refresh', authorization: null },
      { path: '/api/feed/1', authorization: 'Bearer tok' },
      { path: '/api/cats/missing?limit=3', authorization: 'Bearer tok' },
    ]);
    const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel=preload]')];
    const read = (l: HTMLLinkElement) =>
      ['media', 'imagesrcset', 'imagesizes', 'as'].map((a) => l.getAttribute(a));
    expect(links.map(read)).toEqual([
      [
        '(min-width: 641px)',
        '/media/posts/a/400.webp 400w, /media/posts/a/800.webp 800w, /media/posts/a/1600.webp 1600w',
        '(min-width: 641px) 640px, 100vw',
        'image',
      ],
      [
        'not all and (min-width: 641px)',
        '/media/posts/a/300.webp 300w, /media/posts/a/400.webp 400w, /media/posts/a/800.webp 800w',
        '(min-width: 641px) 640px, 100vw',
        'image',
      ],
    ]);
  });

  it('hands each response over once; later callers make their own requests', async () => {
    serve((path) => (path === '/api/refresh' ? json(200, { accessToken: 't' }) : json(200, feedPage)));
    const early = await load();
    early.startEarlyRequests('/feed', true);
    await early.takeRefresh();
    expect(await early.takeEarlyFeed()).toEqual(feedPage);
    expect(await early.takeEarlyFeed()).toBeNull();
    expect(await early.takeEarlyMissingNear()).not.toBeNull();
    expect(await early.takeEarlyMissingNear()).toBeNull();
    await early.takeRefresh();
    expect(calls.map((c) => c.path)).toEqual([
      '/api/refresh',
      '/api/feed/1',
      '/api/cats/missing?limit=3',
      '/api/refresh',
    ]);
  });

  it('starts nothing without "Remember me", and no feed on other screens', async () => {
    serve(() => json(200, { accessToken: 't' }));
    const early = await load();
    early.startEarlyRequests('/feed', false);
    expect(calls).toEqual([]);
    expect(await early.takeEarlyFeed()).toBeNull();

    const other = await load();
    other.startEarlyRequests('/profile/me', true);
    expect(await other.takeEarlyFeed()).toBeNull();
    expect(calls.map((c) => c.path)).toEqual(['/api/refresh']);
  });

  it('leaves the feed to the app when the refresh or the page fails', async () => {
    serve(() => json(401, { message: 'Unauthorized' }));
    const refused = await load();
    refused.startEarlyRequests('/feed', true);
    expect((await refused.takeRefresh()).status).toBe(401);
    expect(await refused.takeEarlyFeed()).toBeNull();
    expect(calls.map((c) => c.path)).toEqual(['/api/refresh']);

    serve((path) =>
      path === '/api/refresh' ? json(200, { accessToken: 't' }) : json(500, { message: 'Boom' }),
    );
    const failing = await load();
    failing.startEarlyRequests('/feed', true);
    expect(await failing.takeEarlyFeed()).toBeNull();
    expect(document.head.querySelectorAll('link[rel=preload]')).toHaveLength(0);

    serve(() => Promise.reject(new TypeError('Failed to fetch')));
    const offline = await load();
    offline.startEarlyRequests('/feed', true);
    await expect(offline.takeRefresh()).rejects.toThrow('Failed to fetch');
    expect(await offline.takeEarlyFeed()).toBeNull();
  });

  it('on /explore: the public map configuration, even before the session, and a preconnect to its tiles', async () => {
    const config = { tileUrl: 'https://tile.example.org/{z}/{x}/{y}.png', attribution: '© OSM' };
    serve((path) =>
      path === '/api/config/map' ? json(200, config) : json(401, { message: 'Unauthorized' }),
    );
    const early = await load();
    early.startEarlyRequests('/explore', false);
    expect(await early.takeEarlyMapConfig()).toEqual(config);
    expect(await early.takeEarlyMapConfig()).toBeNull();
    expect(calls.map((c) => c.path)).toEqual(['/api/config/map']);
    const preconnect = document.head.querySelector('link[rel=preconnect]');
    expect(preconnect?.getAttribute('href')).toBe('https://tile.example.org');

    // Same-origin tiles and {s} templates need no preconnect; a failed answer is left to the app.
    document.head.innerHTML = '';
    serve(() => json(200, { tileUrl: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', attribution: '' }));
    const subdomains = await load();
    subdomains.startEarlyRequests('/explore', true);
    expect(await subdomains.takeEarlyMapConfig()).not.toBeNull();
    expect(document.head.querySelector('link[rel=preconnect]')).toBeNull();
    serve(() => json(503, { message: 'Down' }));
    const down = await load();
    down.startEarlyRequests('/explore', false);
    expect(await down.takeEarlyMapConfig()).toBeNull();
  });
});

describe('route module preloads (boot.ts)', () => {
  const table = {
    '/': ['/assets/landing-page-a.js'],
    '/feed': ['/assets/feed-page-b.js', '/assets/feed-page-c.css'],
  };
  const withTable = (content: string) => {
    document.body.innerHTML = `<script type="application/json" id="route-modules">${content}</script>`;
  };
  const links = () => [...document.head.querySelectorAll('link')].map((l) => [l.rel, l.getAttribute('href')]);

  afterEach(() => {
    document.body.innerHTML = '';
  });

  it("preloads the path's chunks and applies its stylesheets", async () => {
    withTable(JSON.stringify(table));
    const early = await load();
    early.preloadRouteModules('/feed', true);
    expect(links()).toEqual([
      ['modulepreload', '/assets/feed-page-b.js'],
      ['stylesheet', '/assets/feed-page-c.css'],
    ]);
  });

  it('leaves member screens alone for a visitor who is not remembered (they go to /login)', async () => {
    withTable(JSON.stringify(table));
    const early = await load();
    early.preloadRouteModules('/feed', false);
    expect(links()).toEqual([]);
    early.preloadRouteModules('/', false);
    expect(links()).toEqual([['modulepreload', '/assets/landing-page-a.js']]);
  });

  it("preloads the reader's catalogue parts first: the visitor part anywhere, the member part with a member screen", async () => {
    withTable(
      JSON.stringify({
        ...table,
        'catalogue:es:visitor': ['/assets/visitor-d.js'],
        'catalogue:es:member': ['/assets/member-e.js'],
      }),
    );
    const early = await load();
    early.preloadRouteModules('/feed', true, 'es');
    expect(links()).toEqual([
      ['modulepreload', '/assets/visitor-d.js'],
      ['modulepreload', '/assets/member-e.js'],
      ['modulepreload', '/assets/feed-page-b.js'],
      ['stylesheet', '/assets/feed-page-c.css'],
    ]);
    document.head.innerHTML = '';
    early.preloadRouteModules('/feed', false, 'es');
    early.preloadRouteModules('/', false, 'es');
    expect(links()).toEqual([
      ['modulepreload', '/assets/visitor-d.js'],
      ['modulepreload', '/assets/visitor-d.js'],
      ['modulepreload', '/assets/landing-page-a.js'],
    ]);
    document.head.innerHTML = '';
    // English has no catalogue.
    early.preloadRouteModules('/', false, 'en');
    expect(links()).toEqual([['modulepreload', '/assets/landing-page-a.js']]);
  });

  it('adds a long list a few links per task, the first ones at once', async () => {
    vi.useFakeTimers();
    try {
      const files = Array.from({ length: 20 }, (_, i) => `/assets/chunk-${i}.js`);
      withTable(JSON.stringify({ '/explore': files }));
      const early = await load();
      early.preloadRouteModules('/explore', true);
      let added = false;
      void early.earlyLinksAdded().then(() => (added = true));
      const hrefs = () => links().map(([, href]) => href);
      expect(hrefs()).toEqual(files.slice(0, early.LINKS_PER_TASK));
      vi.advanceTimersToNextTimer();
      expect(hrefs()).toEqual(files.slice(0, 2 * early.LINKS_PER_TASK));
      await Promise.resolve();
      // The router's preload waits for the last batch (router.tsx).
      expect(added).toBe(false);
      vi.runAllTimers();
      expect(hrefs()).toEqual(files);
      await vi.waitFor(() => expect(added).toBe(true));
    } finally {
      vi.useRealTimers();
    }
  });

  it('does nothing without a table, with a broken one, or for other paths', async () => {
    const early = await load();
    early.preloadRouteModules('/feed', true);
    withTable('{not json');
    early.preloadRouteModules('/feed', true);
    withTable(JSON.stringify(table));
    early.preloadRouteModules('/groups', true);
    expect(links()).toEqual([]);
  });
});
