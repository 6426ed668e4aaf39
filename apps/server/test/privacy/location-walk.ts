import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { approximateLocation } from '../../src/modules/location/location-grid.ts';
import { signStreamTicket } from '../../src/modules/notifications/stream-ticket.ts';
import { apiRoutes, fillPath, type ApiRoute } from '../hostile/support/routes.ts';
import { injectStream, parseSse } from '../sse-client.ts';
import { unzip } from '../unzip.ts';

/**
 * The location rule, checked on every GET route of the API (issue 23; docs/security.md, "Location").
 * The routes come from the app's own OpenAPI document, so a route added later is walked without
 * touching this file; one whose parameters the walk cannot fill fails here until it is taught them.
 *
 * The rule is written out again here, independently of the server's location-rule.ts, so that a
 * mistake there cannot hide itself:
 * - the author sees the exact spot;
 * - a switched-off location shows nothing to anyone else;
 * - members of a group the post is shared with see the exact spot, except the demo account;
 * - everyone else sees the centre of its ~500 m cell, or the exact spot where the author chose so.
 */

export type Precision = 'exact' | 'approximate' | 'none';

export interface Secret {
  name: string;
  id: string;
  authorId: string;
  latitude: number;
  longitude: number;
  showLocation: boolean;
  /** The author chose exact public locations. */
  exactPublic: boolean;
  /** Ids of the users (all members) of the groups the post is shared with, the author included. */
  sharedWith: ReadonlySet<string>;
  /** In its author's trash (issue 24): nobody else may see it at all. */
  trashed?: boolean;
  /**
   * A sighting of a household cat within CAT_HOME_PRIVACY_METRES of its home point (issue 26), or one
   * by someone who does not care for it, wherever it lies (decision 022): in the cat routes' answers it
   * shows no place to anyone but the cat's caretakers and its author, and elsewhere it names no cat.
   */
  nearCatHome?: { caretakers: ReadonlySet<string> };
  /** The cat the post is a sighting of (issue 26): 'Which cat is this?' may suggest it near its place. */
  catId?: string;
}

/**
 * A place that is not a post's (issue 26, missing cats): a missing cat's last-seen place, a report's
 * place, a home area. What each viewer may know of it is given with it, and checked in every answer as
 * a post's position is: its exact decimals nowhere unless exact, only its cell's centre near it where
 * approximate, nothing within 600 m where none.
 */
export interface PlaceSecret {
  name: string;
  latitude: number;
  longitude: number;
  /** `where`: 'GET <url>', with the file's name for a file inside a data export's zip. */
  precisionFor(viewer: WalkViewer, where: string): Precision;
}

export interface WalkViewer {
  name: string;
  userId: string;
  isDemo: boolean;
  headers: Record<string, string>;
  /** Authors whose posts this viewer cannot see at all (a block either way). */
  blockedWith: ReadonlySet<string>;
}

/**
 * What the viewer may know of the secret's position in an answer of this route (`where`: 'GET <url>');
 * null when the post is not theirs to see.
 */
export function allowedPrecisionIn(viewer: WalkViewer, s: Secret, where: string): Precision | null {
  const allowed = allowedPrecision(viewer, s);
  const catAnswer = /^GET \/api\/cats(\/|\?|$)/.test(where);
  if (
    allowed !== null &&
    catAnswer &&
    s.nearCatHome &&
    viewer.userId !== s.authorId &&
    (!s.nearCatHome.caretakers.has(viewer.userId) || viewer.isDemo)
  ) {
    return 'none';
  }
  return allowed;
}

/** What the viewer may know of the secret's position; null when the post is not theirs to see. */
export function allowedPrecision(viewer: WalkViewer, s: Secret): Precision | null {
  if (viewer.blockedWith.has(s.authorId)) return null;
  if (viewer.userId === s.authorId) return 'exact';
  if (s.trashed) return null;
  if (!s.showLocation) return 'none';
  if (s.sharedWith.has(viewer.userId) && !viewer.isDemo) return 'exact';
  if (s.exactPublic) return 'exact';
  return 'approximate';
}

/**
 * Where the viewer may place the secret in the cat routes' answers (issue 26), from which 'Which cat is
 * this?' may measure its distance: the exact spot, its cell's centre, or nowhere (a trashed post counts
 * for no one, its author included).
 */
export function catPlaceOf(viewer: WalkViewer, s: Secret): { lat: number; lon: number } | null {
  if (s.trashed) return null;
  const precision = allowedPrecisionIn(viewer, s, 'GET /api/cats/suggestions');
  if (precision === 'exact') return { lat: s.latitude, lon: s.longitude };
  if (precision !== 'approximate') return null;
  const cell = approximateLocation(s.latitude, s.longitude);
  return { lat: cell.latitude, lon: cell.longitude };
}

/** Metres between two points (equirectangular: plenty at these distances). */
export function metres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const x = (b.lon - a.lon) * rad * Math.cos(((a.lat + b.lat) / 2) * rad);
  const y = (b.lat - a.lat) * rad;
  return Math.sqrt(x * x + y * y) * 6_371_000;
}

interface Pair {
  lat: number;
  lon: number;
  path: string;
  /** A map cluster (it has a count): the average of its members' public positions. */
  cluster: boolean;
}

/** Every object in an answer with numeric latitude and longitude (posts, markers, clusters, anything). */
export function coordinatePairs(value: unknown, path = '$', out: Pair[] = []): Pair[] {
  if (Array.isArray(value)) value.forEach((v, i) => coordinatePairs(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const lat = o.latitude ?? o.lat;
    const lon = o.longitude ?? o.lng ?? o.lon;
    if (typeof lat === 'number' && typeof lon === 'number') {
      out.push({ lat, lon, path, cluster: typeof o.count === 'number' });
    }
    for (const [k, v] of Object.entries(o)) coordinatePairs(v, `${path}.${k}`, out);
  }
  return out;
}

interface PostLike {
  _id: string;
  latitude: number | null;
  longitude: number | null;
  locationPrecision?: string | null;
  /** The cat the post is linked to (issue 26). */
  cat?: { _id: string } | null;
}

/** Every object with an _id and a latitude field: a post as some route answers it. */
export function postsIn(value: unknown, out = new Map<string, PostLike[]>()): Map<string, PostLike[]> {
  if (Array.isArray(value)) value.forEach((v) => postsIn(v, out));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o._id === 'string' && 'latitude' in o) {
      out.set(o._id, [...(out.get(o._id) ?? []), o as unknown as PostLike]);
    }
    Object.values(o).forEach((v) => postsIn(v, out));
  }
  return out;
}

/**
 * Asserts the rule on one answer, for every secret: exact values only where allowed, the cell centre
 * where approximate, nothing near a switched-off or invisible post, and each post object as the
 * viewer may see it. Secrets must lie in distinct cells, each ~300 m from its cell's centre.
 */
export function assertLocationRule(
  viewer: WalkViewer,
  where: string,
  text: string,
  secrets: readonly Secret[],
  places: readonly PlaceSecret[] = [],
) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null; // not JSON (an image, a page): the text checks below still apply
  }
  const pairs = coordinatePairs(body);
  const posts = postsIn(body);
  for (const s of secrets) {
    const allowed = allowedPrecisionIn(viewer, s, where);
    const at = `${viewer.name} ${where}: ${s.name}`;
    const cell = approximateLocation(s.latitude, s.longitude);
    const seen = posts.get(s.id) ?? [];
    if (allowed === null) expect(seen, `${at} is visible`).toEqual([]);
    // Outside the cat's own answers a sighting near its home keeps its place but does not name the cat
    // to anyone but the caretakers and the author: the two together would place the cat's home.
    const catHidden =
      s.nearCatHome !== undefined &&
      viewer.userId !== s.authorId &&
      (!s.nearCatHome.caretakers.has(viewer.userId) || viewer.isDemo) &&
      !/^GET \/api\/cats(\/|\?|$)/.test(where);
    for (const post of seen) {
      if ('cat' in post) {
        if (catHidden) expect(post.cat, `${at}: names its cat`).toBeNull();
        else expect(post.cat, `${at}: its cat`).not.toBeNull();
      }
      // A map marker has a position but no precision field; it stands where the post's card puts it.
      if (!('locationPrecision' in post)) {
        const got = [post.latitude, post.longitude];
        if (allowed === 'exact') expect(got, `${at} (marker)`).toEqual([s.latitude, s.longitude]);
        else if (allowed === 'approximate')
          expect(got, `${at} (marker)`).toEqual([cell.latitude, cell.longitude]);
        else expect.fail(`${at}: a marker for a post whose location is off`);
        continue;
      }
      const got = [post.latitude, post.longitude, post.locationPrecision ?? null];
      if (allowed === 'exact') expect(got, at).toEqual([s.latitude, s.longitude, 'exact']);
      else if (allowed === 'approximate') {
        expect(got, at).toEqual([cell.latitude, cell.longitude, 'approximate']);
      } else expect(got, at).toEqual([null, null, null]);
    }
    if (allowed === 'exact') continue;
    assertNothingCloser(at, text, pairs, s, allowed ?? 'none');
  }
  for (const place of places) {
    const allowed = place.precisionFor(viewer, where);
    if (allowed !== 'exact')
      assertNothingCloser(`${viewer.name} ${where}: ${place.name}`, text, pairs, place, allowed);
  }
}

/** The text and positions of an answer tell no more of the point than `allowed` (never 'exact' here). */
function assertNothingCloser(
  at: string,
  text: string,
  pairs: readonly Pair[],
  point: { latitude: number; longitude: number },
  allowed: 'approximate' | 'none',
) {
  const cell = approximateLocation(point.latitude, point.longitude);
  // Nowhere in the text, in any form the exact decimals could take.
  expect(text.includes(String(point.latitude)), `${at}: exact latitude in the answer`).toBe(false);
  expect(text.includes(String(point.longitude)), `${at}: exact longitude in the answer`).toBe(false);
  // A cluster stands at the average of its members' public positions: it can only be as precise as
  // they are, and an average of far-apart cells may fall anywhere. What it counts is checked by the
  // callers (switched-off posts are in no count).
  for (const p of pairs) {
    if (p.cluster) continue;
    const distance = metres({ lat: point.latitude, lon: point.longitude }, p);
    if (allowed === 'approximate') {
      // Its own cell's centre is what others may know, however close to it the photo was taken.
      if (p.lat === cell.latitude && p.lon === cell.longitude) continue;
      expect(distance, `${at}: a position ${Math.round(distance)} m away at ${p.path}`).toBeGreaterThan(100);
    } else {
      // Switched off or invisible: not even its cell (the cells of the secrets are far apart).
      expect(distance, `${at}: a position ${Math.round(distance)} m away at ${p.path}`).toBeGreaterThan(600);
    }
  }
}

export interface WalkValues {
  /** Values for path parameters, by name: each one is tried. */
  params: Record<string, readonly string[]>;
  /**
   * Query strings to try, by the name of a query parameter the route declares: a route with `west`
   * gets every viewport, one with `user` every author. Every route is also called without a query.
   */
  queries: Record<string, readonly string[]>;
  /**
   * Mints one of the viewer's stream tickets, for routes that take one (the notification stream): each
   * of their URLs is walked with a new one (a ticket opens one stream), and the stream's first events
   * (its replay) are read.
   */
  ticket?: () => string;
}

export interface WalkedAnswer {
  route: ApiRoute;
  url: string;
  viewer: WalkViewer;
  res: LightMyRequestResponse;
}

/** Every GET route's URLs with the given values; throws for a path parameter it has no value for. */
/**
 * A stream ticket for one of the walk's viewers, minted as the route would: one per stream opened (a
 * ticket opens one). The walks' viewers never change their password: their accounts are at generation 0.
 */
export function walkTicket(app: FastifyInstance, userId: string): () => string {
  return () =>
    signStreamTicket(app.sessionKeys.streamTicket, { userId, generation: 0 }, new Date(Date.now() + 60_000));
}

export function urlsOf(route: ApiRoute, values: WalkValues): string[] {
  let paths: Record<string, string>[] = [{}];
  for (const name of route.params) {
    const candidates = values.params[name];
    if (!candidates || candidates.length === 0) {
      throw new Error(`the location walk has no value for :${name} of ${route.key}: add one to its params`);
    }
    paths = paths.flatMap((filled) => candidates.map((v) => ({ ...filled, [name]: encodeURIComponent(v) })));
  }
  const queries = [''];
  for (const name of Object.keys(route.query)) queries.push(...(values.queries[name] ?? []));
  const unique = [...new Set(queries)];
  return paths.flatMap((filled) => unique.map((q) => `${fillPath(route, filled)}${q ? `?${q}` : ''}`));
}

/**
 * Calls every GET route of the API as each viewer with every combination of values, asserts the rule
 * on each answer and returns them all (for the callers' own checks).
 */
export async function walkGetRoutes(
  app: FastifyInstance,
  viewers: readonly WalkViewer[],
  values: (viewer: WalkViewer) => WalkValues,
  secrets: readonly Secret[],
  places: readonly PlaceSecret[] = [],
): Promise<WalkedAnswer[]> {
  const answers: WalkedAnswer[] = [];
  const routes = apiRoutes(app).filter((r) => r.method === 'GET');
  for (const viewer of viewers) {
    const given = values(viewer);
    for (const route of routes) {
      for (const plain of urlsOf(route, given)) {
        const url =
          route.ticket && given.ticket
            ? `${plain}${plain.includes('?') ? '&' : '?'}ticket=${encodeURIComponent(given.ticket())}`
            : plain;
        const request = { method: 'GET' as const, url, headers: viewer.headers };
        const res = route.ticket
          ? await injectStream(app, request, viewer.userId)
          : await app.inject(request);
        expect(res.statusCode, `${viewer.name} GET ${url}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
        assertLocationRule(viewer, `GET ${url}`, res.body, secrets, places);
        // A stream (the notifications' replay): the rule holds in each event's JSON too.
        if (String(res.headers['content-type']).startsWith('text/event-stream')) {
          for (const event of parseSse(res.body))
            assertLocationRule(viewer, `GET ${url} event ${event.event}`, event.data, secrets, places);
        }
        // A data export (issue 24): the rule holds in every file inside the zip too, read uncompressed.
        if (res.headers['content-type'] === 'application/zip') {
          for (const [name, bytes] of await unzip(res.rawPayload)) {
            if (name.endsWith('.json'))
              assertLocationRule(viewer, `GET ${url} ${name}`, bytes.toString('utf8'), secrets, places);
          }
        }
        answers.push({ route, url, viewer, res });
      }
    }
  }
  return answers;
}
