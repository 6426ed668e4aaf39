/**
 * The first requests of a returning visitor's page, started by boot.ts while the app's code is still
 * downloading. Without this, restoring a remembered session waited for the whole bundle, the screen's
 * chunk and React's first render, and the feed waited for the restore: on a phone network that chain
 * was most of the time to the first photo (docs/performance.md, Lighthouse).
 *
 * Each response is handed over once. The refresh token rotates on use, so the app must take the early
 * refresh instead of sending its own; anything not taken is simply not used.
 */
import { MISSING_BANNER_SHOWN, type PagedPostsResponse } from '@cats/contracts';
import {
  FEED_IMAGE_SIZES,
  PHONE_WIDTHS,
  WIDE_QUERY,
  WIDE_WIDTHS,
  srcSet,
} from '../components/post/image-sources.ts';

let refresh: Promise<Response> | null = null;
let feed: Promise<Response | null> | null = null;
/** Missing cats near the viewer (issue 26): the feed shows them above its first post. */
let missingNear: Promise<Response | null> | null = null;
let mapConfig: Promise<Response | null> | null = null;
/** Settles once every early link is in the document (earlyLinksAdded). */
let linksAdded: Promise<void> = Promise.resolve();

/** GET /api/refresh as the app sends it (api-client's refreshSession). */
const fetchRefresh = () => fetch('/api/refresh', { credentials: 'include' });

/** Paths whose screens are for members: their code is worth fetching early only for a remembered visitor. */
const MEMBER_PATHS = new Set(['/feed', '/explore']);

/**
 * Starts downloading the lazily loaded code of this path's screen (the build's table in the
 * `route-modules` data block, vite.config.ts), so it arrives with the main bundle instead of after it,
 * and the reader's catalogue parts (i18n/catalogues.ts; English has none), which the app would only
 * ask for once the bundle had run, one after the other. A member screen's code and texts are fetched
 * only for a remembered visitor: anyone else is sent to /login.
 */
export function preloadRouteModules(pathname: string, remembered: boolean, language = 'en'): void {
  // The reader's texts first: the visitor part holds up the first render, the member part the screen.
  const keys = [`catalogue:${language}:visitor`];
  const member = MEMBER_PATHS.has(pathname);
  if (member && remembered) keys.push(`catalogue:${language}:member`);
  if (!member || remembered) keys.push(pathname);
  let table: Record<string, unknown>;
  try {
    table = JSON.parse(document.getElementById('route-modules')?.textContent ?? '{}') as Record<
      string,
      unknown
    >;
  } catch {
    return;
  }
  const files = keys.flatMap((key) => {
    const listed = table[key];
    return Array.isArray(listed) ? listed.filter((file): file is string => typeof file === 'string') : [];
  });
  linksAdded = new Promise((resolve) => addLinks(files.map(preloadOf), resolve));
}

/**
 * Resolves once the early links are all in the document (at once when there were none). Vite's loader
 * of a lazy chunk adds a link for each file the chunk needs that has none yet: called before the early
 * links are in, it added forty at once, the same long task LINKS_PER_TASK splits (router.tsx waits).
 */
export const earlyLinksAdded = (): Promise<void> => linksAdded;

// Stylesheets are applied as they arrive (they only style the screen's own classes); the loader of the
// lazy chunk finds them in place and does not add them twice.
const preloadOf = (href: string): Record<string, string> =>
  href.endsWith('.css') ? { rel: 'stylesheet', href } : { rel: 'modulepreload', href, crossorigin: '' };

/**
 * Links added per task. Each preload link costs the page about a millisecond of main thread as it is
 * added (four times that on a slow phone), and /explore and /feed list 40-60 files: added at once they
 * were the longest task of the load (docs/performance.md). The first batch (the screen's own chunks
 * come first in the table) goes at once, the others each in a task of its own.
 */
export const LINKS_PER_TASK = 8;

function addLinks(links: Record<string, string>[], done: () => void): void {
  for (const attributes of links.slice(0, LINKS_PER_TASK)) appendLink(attributes);
  if (links.length > LINKS_PER_TASK) setTimeout(() => addLinks(links.slice(LINKS_PER_TASK), done));
  else done();
}

export function startEarlyRequests(pathname: string, remembered: boolean, language = 'en'): void {
  startEarlyFetches(pathname, remembered);
  // After the fetches: a browser opens at most six connections to a server over HTTP/1.1, and the
  // session restore and first page are what the screen waits for longest.
  preloadRouteModules(pathname, remembered, language);
}

function startEarlyFetches(pathname: string, remembered: boolean): void {
  // The map's tile source is public: the map can ask for tiles as soon as Leaflet has loaded.
  if (pathname === '/explore' && !mapConfig) {
    mapConfig = fetch('/api/config/map')
      .then(async (res) => {
        if (res.ok) preconnect(((await res.clone().json()) as { tileUrl: string }).tileUrl);
        return res;
      })
      .catch(() => null);
  }
  if (!remembered || refresh) return;
  refresh = fetchRefresh();
  if (pathname === '/feed') {
    const token = refresh.then(async (res) =>
      res.ok ? ((await res.clone().json()) as { accessToken: string }).accessToken : null,
    );
    feed = token
      .then(async (accessToken) => {
        if (!accessToken) return null;
        const page = await fetch('/api/feed/1', { headers: { authorization: `Bearer ${accessToken}` } });
        if (page.ok) preloadFirstImage((await page.clone().json()) as PagedPostsResponse);
        return page;
      })
      .catch(() => null);
    // Beside the first page: the feed waits for both before showing its posts, so that the banner
    // of missing cats never pushes them down once shown (the feed's layout-shift budget).
    missingNear = token
      .then((accessToken) =>
        accessToken
          ? fetch(`/api/cats/missing?limit=${MISSING_BANNER_SHOWN}`, {
              headers: { authorization: `Bearer ${accessToken}` },
            })
          : null,
      )
      .catch(() => null);
  }
}

/** Opens the connection to a tile server on another origin while the map's code downloads. */
function preconnect(tileUrlTemplate: string): void {
  let origin: string;
  try {
    origin = new URL(tileUrlTemplate, window.location.href).origin;
  } catch {
    return;
  }
  // A {s} subdomain template names no single host; the app's own origin needs no preconnect.
  if (origin.includes('{') || origin === window.location.origin) return;
  appendLink({ rel: 'preconnect', href: origin, crossorigin: '' });
}

function appendLink(attributes: Record<string, string>): void {
  const link = document.createElement('link');
  for (const [name, value] of Object.entries(attributes)) link.setAttribute(name, value);
  document.head.append(link);
}

/**
 * The first card's photo is the page's largest paint. Its request would otherwise wait for the app to
 * render the card; a preload with the card's own srcset and sizes (and its picture's media split)
 * starts it now, and the browser reuses the response for the <img>.
 */
function preloadFirstImage(page: PagedPostsResponse): void {
  const image = page.posts[0]?.image;
  if (!image) return;
  const links: [string, string][] = [
    [srcSet(image.variants, WIDE_WIDTHS), WIDE_QUERY],
    [srcSet(image.variants, PHONE_WIDTHS), `not all and ${WIDE_QUERY}`],
  ];
  for (const [imagesrcset, media] of links) {
    if (!imagesrcset) continue;
    appendLink({
      rel: 'preload',
      as: 'image',
      imagesrcset,
      imagesizes: FEED_IMAGE_SIZES,
      media,
      fetchpriority: 'high',
    });
  }
}

/** The early refresh, or a new one when none was started (or it was already taken). */
export function takeRefresh(): Promise<Response> {
  const early = refresh;
  refresh = null;
  return early ?? fetchRefresh();
}

/** The early first feed page when it arrived intact; otherwise null and the caller asks as usual. */
export function takeEarlyFeed(): Promise<unknown> {
  const early = feed;
  feed = null;
  return bodyIfOk(early);
}

/** The early list of missing cats near the viewer (/feed) when it arrived intact; otherwise null. */
export function takeEarlyMissingNear(): Promise<unknown> {
  const early = missingNear;
  missingNear = null;
  return bodyIfOk(early);
}

/** The early map configuration (/explore) when it arrived intact; otherwise null. */
export function takeEarlyMapConfig(): Promise<unknown> {
  const early = mapConfig;
  mapConfig = null;
  return bodyIfOk(early);
}

async function bodyIfOk(early: Promise<Response | null> | null): Promise<unknown> {
  const res = early ? await early : null;
  return res?.ok ? res.json() : null;
}
