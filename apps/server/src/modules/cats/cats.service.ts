import {
  CAT_MAP_POINTS_MAX,
  CAT_MESSAGES,
  CAT_SIGHTINGS_PAGE_SIZE,
  CAT_SUGGESTION_DAYS,
  CAT_SUGGESTION_LIMIT,
  CAT_SUGGESTION_METRES,
  CATS_PAGE_SIZE,
  DEMO_USER_ID,
  type Cat,
  type CatMapResponse,
  type CatSightingsResponse,
  type CatsResponse,
  type CatSuggestionsResponse,
  type CatSuggestion,
  type CatSummary,
  type CreateCatRequest,
  type UpdateCatRequest,
  type UserSummary,
} from '@cats/contracts';
import type { Database, Executor } from '../../db/client.ts';
import type { CatRow } from '../../db/schema/index.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/http-errors.ts';
import { POST_CAT_FK, violatesConstraint } from '../../lib/db-errors.ts';
import { toUserSummary } from '../visibility/user-summary.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import {
  decodeCursor,
  encodeCursor,
  imageVariantUrls,
  INVALID_CURSOR_MESSAGE,
  toPostView,
} from '../posts/post-view.ts';
import { selectVisiblePosts, type PostViewRow } from '../posts/posts.repository.ts';
import { LOCATION_GRID_DEGREES, locationCell } from '../location/location-grid.ts';
import type { LocatedPost } from '../location/location-rule.ts';
import { hiddenByHome, metresBetween, sightingPlace, type CatHome } from '../visibility/cat-place.ts';
import type { CoverRow } from './cover-row.ts';
import * as suggestions from './post-cat-suggestions.repository.ts';
import * as repo from './cats.repository.ts';
import type { CatsNearStore } from './cats-near-store.ts';
import { shownAlertOfCat } from './missing/missing.repository.ts';

export const CAT_CREATED_MESSAGE = 'Cat created';
/** posts.cat_id's foreign key: the cat went (its last caretaker's account was deleted) meanwhile. */

export interface CatsDeps {
  db: Database;
  publicBase: string | undefined;
  /** The near list's per-process caches (its first page); without them every page is read from SQL. */
  nearStore?: CatsNearStore;
}

function toCover(deps: CatsDeps, source: CoverRow | null): CatSummary['cover'] {
  if (!source) return null;
  return {
    postId: source.postId,
    image: {
      width: source.width,
      height: source.height,
      placeholder: source.placeholder,
      variants: imageVariantUrls(deps.publicBase, source.mediaKey),
    },
    altText: source.altText,
  };
}

const coverOfRow = (row: PostViewRow): CoverRow => ({
  postId: row.id,
  mediaKey: row.mediaKey,
  width: row.width,
  height: row.height,
  placeholder: row.placeholder,
  altText: row.altText,
});

/**
 * The cat or 404 (unknown and malformed ids alike). A merged cat's id stands for the cat it was merged
 * into (issue 26: merged ids redirect to the surviving cat), for reading and for writing alike.
 */
export async function requireCat(db: Executor, catId: string, lock?: repo.CatLock): Promise<CatRow> {
  const cat = await repo.findLiveCat(db, catId, lock);
  if (!cat) throw notFound(CAT_MESSAGES.notFound);
  return cat;
}

/** The cat for one of its caretakers: 404 when unknown, 403 for anyone else. */
async function requireCaretaker(db: Executor, viewer: AuthContext, catId: string, lock?: repo.CatLock) {
  const cat = await requireCat(db, catId, lock);
  if (!(await repo.isCaretaker(db, cat.id, viewer.userId))) throw forbidden(CAT_MESSAGES.notCaretaker);
  return cat;
}

const uniqueCoats = <T>(coats: readonly T[] | undefined) => (coats ? [...new Set(coats)] : undefined);

/** The whole profile as this viewer may see it. */
export async function getCat(deps: CatsDeps, viewer: AuthContext, catId: string): Promise<Cat> {
  const cat = await requireCat(deps.db, catId);
  return catView(deps, viewer, cat);
}

/** GET /api/cats/{catId}: the profile, and `mergedInto` when the id asked for is a merged cat's. */
export async function getCatAnswer(
  deps: CatsDeps,
  viewer: AuthContext,
  catId: string,
): Promise<{ cat: Cat; mergedInto?: string }> {
  const cat = await requireCat(deps.db, catId);
  const view = await catView(deps, viewer, cat);
  return cat.id === catId.toLowerCase() ? { cat: view } : { cat: view, mergedInto: cat.id };
}

async function catView(deps: CatsDeps, viewer: AuthContext, cat: CatRow): Promise<Cat> {
  const { db, publicBase } = deps;
  const [isCaretaker, caretakers, creator, counts, follows, newest, covers] = await Promise.all([
    repo.isCaretaker(db, cat.id, viewer.userId),
    repo.caretakersVisibleTo(db, cat.id, viewer.userId),
    cat.createdBy ? repo.userVisibleTo(db, cat.createdBy, viewer.userId) : null,
    repo.sightingCounts(db, cat.id, viewer.userId),
    repo.followState(db, cat.id, viewer.userId),
    selectVisiblePosts(db, viewer.userId, { catId: cat.id }, { limit: 1 }),
    repo.visibleCovers(db, [cat.id], viewer.userId),
  ]);
  const caretaker = isCaretaker && !viewer.isDemo;
  const last = newest[0] ?? null;
  const summary = (user: repo.UserRowLike): UserSummary => toUserSummary(viewer, user, publicBase);
  return {
    _id: cat.id,
    name: cat.name,
    // The chosen cover when the viewer may see it, else their newest sighting of the cat.
    cover: toCover(deps, covers.get(cat.id) ?? (last ? coverOfRow(last) : null)),
    description: cat.description,
    coatColours: cat.coatColours as Cat['coatColours'],
    earTipped: cat.earTipped as Cat['earTipped'],
    neutered: cat.neutered as Cat['neutered'],
    living: cat.living as Cat['living'],
    createdBy: creator ? summary(creator) : null,
    caretakers: caretakers.map(summary),
    lastSeen: last
      ? {
          postId: last.id,
          at: last.createdAt.toISOString(),
          ...sightingPlace(viewer, cat, caretaker, last),
        }
      : null,
    sightingCount: counts.total,
    sightingsThisWeek: counts.week,
    followerCount: follows.count,
    // The home point goes to the caretakers only, in no other answer to anyone.
    ...(caretaker
      ? {
          home:
            cat.homeLatitude !== null && cat.homeLongitude !== null
              ? { latitude: cat.homeLatitude, longitude: cat.homeLongitude }
              : null,
        }
      : {}),
    viewer: {
      isCaretaker: caretaker,
      canEdit: caretaker,
      following: follows.following,
      canFollow: !viewer.isDemo,
    },
    createdAt: cat.createdAt.toISOString(),
    updatedAt: cat.updatedAt.toISOString(),
  };
}

/**
 * A new cat; its creator is its first caretaker. `postId`, one of the creator's own live posts, becomes
 * its first sighting and its cover.
 */
export async function createCat(deps: CatsDeps, viewer: AuthContext, body: CreateCatRequest): Promise<Cat> {
  const catId = await deps.db.transaction(async (tx) => {
    let postId: string | null = null;
    if (body.postId !== undefined) {
      const post = await repo.visiblePost(tx, body.postId, viewer.userId);
      if (!post) throw notFound(CAT_MESSAGES.postNotFound);
      if (post.userId !== viewer.userId) throw forbidden(CAT_MESSAGES.postNotYours);
      postId = post.id;
    }
    const id = await repo.insertCat(tx, {
      name: body.name,
      description: body.description ?? '',
      coatColours: uniqueCoats(body.coatColours) ?? [],
      earTipped: body.earTipped ?? 'unknown',
      neutered: body.neutered ?? 'unknown',
      living: body.living ?? 'unknown',
      createdBy: viewer.userId,
    });
    await repo.addCaretaker(tx, id, viewer.userId);
    if (postId) {
      await repo.setPostCat(tx, postId, id);
      await repo.updateCat(tx, id, { coverPostId: postId });
    }
    return id;
  });
  return getCat(deps, viewer, catId);
}

/** Caretakers change the profile; absent fields stay. */
export async function updateCat(
  deps: CatsDeps,
  viewer: AuthContext,
  catId: string,
  body: UpdateCatRequest,
): Promise<Cat> {
  const id = await deps.db.transaction(async (tx) => {
    const cat = await requireCaretaker(tx, viewer, catId, 'update');
    const changes: Partial<repo.NewCat> = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description;
    if (body.coatColours !== undefined) changes.coatColours = uniqueCoats(body.coatColours);
    if (body.earTipped !== undefined) changes.earTipped = body.earTipped;
    if (body.neutered !== undefined) changes.neutered = body.neutered;
    if (body.living !== undefined) changes.living = body.living;
    if (body.home !== undefined) {
      changes.homeLatitude = body.home?.latitude ?? null;
      changes.homeLongitude = body.home?.longitude ?? null;
    }
    if (body.coverPostId !== undefined) {
      // One of this cat's sightings that the caretaker may see themself.
      const post = await repo.visiblePost(tx, body.coverPostId, viewer.userId);
      if (!post || post.catId !== cat.id) throw badRequest(CAT_MESSAGES.coverNotSighting);
      changes.coverPostId = post.id;
    }
    await repo.updateCat(tx, cat.id, changes);
    return cat.id;
  });
  return getCat(deps, viewer, id);
}

/**
 * The cat a post is to be linked to: an id (or null, none), or read in the link's transaction with who
 * suggested it (an accepted 'This is Luna').
 */
export type CatChoice =
  | string
  | null
  | ((
      tx: Executor,
      post: { id: string; userId: string; catId: string | null },
    ) => Promise<{ catId: string; suggestedBy: string }>);

/**
 * Only a household cat's caretakers link a picture to it (issue 46): the author is one, or accepts the
 * suggestion of one. Whether a sighting is kept near the home shows to everyone (cat-place.ts), so a
 * stranger linking their own post and moving it would probe where the cat lives, cell by cell. Others
 * are told to have it suggested; community and unknown cats keep their open linking.
 *
 * While the cat is missing, anyone shown its alert may link too ('I saw this cat' with a photo is such
 * a link): a stranger's sighting is kept from all but the caretakers and its author wherever it lies
 * (sighting_kept_from, decision 022), so the link tells nobody anything of the home. Once the alert
 * ends, links stay and new ones by strangers are refused again.
 */
async function requireHouseholdLinker(tx: Executor, cat: CatRow, linkers: readonly string[]): Promise<void> {
  if (cat.living !== 'household') return;
  for (const userId of linkers) if (await mayLinkHouseholdCat(tx, cat.id, userId)) return;
  throw forbidden(CAT_MESSAGES.householdLinkCaretakers);
}

/** A caretaker, or anyone shown the cat's open missing alert (alertShownTo: blocks and all apply). */
export async function mayLinkHouseholdCat(tx: Executor, catId: string, userId: string): Promise<boolean> {
  return (await repo.isCaretaker(tx, catId, userId)) || (await shownAlertOfCat(tx, catId, userId)) !== null;
}

/**
 * The author links their post to a cat, or unlinks it (null): PUT /api/posts/{postId}/cat, and the
 * acceptance of a 'This is Luna' suggestion (post-cat-suggestions.service.ts: `choice` reads the suggestion
 * in this transaction), which goes through here so that the followers are told as for any link (the
 * sighting trigger, migration 0017).
 */
export async function linkPostToCat(
  deps: CatsDeps,
  viewer: AuthContext,
  postId: string,
  choice: CatChoice,
  notAuthorMessage: string = CAT_MESSAGES.postNotYours,
): Promise<{ updatedPost: { _id: string; cat: CatSuggestion | null } }> {
  const linked = await deps.db
    .transaction(async (tx) => {
      const post = await repo.postSeenBy(tx, postId, viewer.userId);
      if (!post) throw notFound(CAT_MESSAGES.postNotFound);
      if (post.userId !== viewer.userId) throw forbidden(notAuthorMessage);
      const chosen =
        typeof choice === 'function' ? await choice(tx, post) : { catId: choice, suggestedBy: null };
      // Shared with a merge of that cat: one running now commits first, and the link follows it.
      const cat = chosen.catId === null ? null : await requireCat(tx, chosen.catId, 'share');
      // The demo account is never a caretaker (its password is public).
      const linkers = [
        ...(viewer.isDemo ? [] : [viewer.userId]),
        ...(chosen.suggestedBy ? [chosen.suggestedBy] : []),
      ];
      if (cat) await requireHouseholdLinker(tx, cat, linkers);
      await repo.setPostCat(tx, post.id, cat?.id ?? null);
      // Suggestions of the cat the post now shows were right: the link answers them.
      if (cat) await acceptSuggestionsOf(tx, post.id, cat.id);
      return { postId: post.id, catId: cat?.id ?? null };
    })
    .catch((err: unknown) => {
      if (violatesConstraint(err, POST_CAT_FK)) throw notFound(CAT_MESSAGES.notFound);
      throw err;
    });
  if (!linked.catId) return { updatedPost: { _id: linked.postId, cat: null } };
  // The post's card says whether the cat is missing (its view's `cat.missing`): the answer says it too.
  const [summary, alert] = await Promise.all([
    catSummary(deps, viewer, linked.catId),
    shownAlertOfCat(deps.db, linked.catId, viewer.userId),
  ]);
  return { updatedPost: { _id: linked.postId, cat: summary && { ...summary, missing: alert !== null } } };
}

/** The open suggestions of this cat (or of a profile merged into it) on the post become accepted. */
async function acceptSuggestionsOf(tx: Executor, postId: string, catId: string): Promise<void> {
  const open = await suggestions.openSuggestionsOfPost(tx, postId);
  const right: string[] = [];
  for (const suggestion of open) {
    const cat = await repo.findLiveCat(tx, suggestion.catId);
    if (cat?.id === catId) right.push(suggestion.id);
  }
  await suggestions.answerSuggestions(tx, right, 'accepted');
}

/** How a cat is shown in lists and on cards, with the cover this viewer may see. */
export async function catSummary(
  deps: CatsDeps,
  viewer: AuthContext,
  catId: string,
): Promise<CatSummary | null> {
  const cat = await repo.findCat(deps.db, catId);
  // A cat a moderator removed (issue 27) is summed up nowhere, like a deleted one.
  if (!cat || cat.removedAt) return null;
  const [covers, newest] = await Promise.all([
    repo.visibleCovers(deps.db, [cat.id], viewer.userId),
    selectVisiblePosts(deps.db, viewer.userId, { catId: cat.id }, { limit: 1 }),
  ]);
  const last = newest[0];
  return {
    _id: cat.id,
    name: cat.name,
    cover: toCover(deps, covers.get(cat.id) ?? (last ? coverOfRow(last) : null)),
  };
}

/**
 * For createPost: the cat a new post may be linked to; 404 when unknown or malformed, 403 for a
 * household cat the author does not care for.
 */
export async function catForNewPost(db: Executor, viewer: AuthContext, catId: string): Promise<string> {
  const cat = await requireCat(db, catId);
  await requireHouseholdLinker(db, cat, viewer.isDemo ? [] : [viewer.userId]);
  return cat.id;
}

// ---------------------------------------------------------------------------------------------------
// The timeline and the map
// ---------------------------------------------------------------------------------------------------

/** The cat's sightings the viewer may see, newest first, each as the feed shows it less a home-near place. */
export async function listSightings(
  deps: CatsDeps,
  viewer: AuthContext,
  catId: string,
  cursor: string | undefined,
): Promise<CatSightingsResponse> {
  const cat = await requireCat(deps.db, catId);
  const position = cursor ? decodeCursor(cursor) : null;
  const [rows, caretaker] = await Promise.all([
    selectVisiblePosts(
      deps.db,
      viewer.userId,
      { catId: cat.id },
      { limit: CAT_SIGHTINGS_PAGE_SIZE, cursor: position },
    ),
    repo.isCaretaker(deps.db, cat.id, viewer.userId),
  ]);
  const page = rows.slice(0, CAT_SIGHTINGS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    posts: page.map((row) => {
      // In the cat's own timeline the cat is known; a sighting near its home loses its place instead.
      const post = {
        ...toPostView(viewer, row, deps),
        cat: { _id: cat.id, name: cat.name, missing: row.linkedCatMissing },
      };
      if (!hiddenByHome(viewer, cat, caretaker, row)) return post;
      return { ...post, latitude: null, longitude: null, locationPrecision: null, showLocation: false };
    }),
    info: { nextCursor: rows.length > CAT_SIGHTINGS_PAGE_SIZE && last ? encodeCursor(last) : null },
  };
}

/** The newest located sightings the viewer may place, each as they may place it. */
export async function sightingsMap(
  deps: CatsDeps,
  viewer: AuthContext,
  catId: string,
): Promise<CatMapResponse> {
  const cat = await requireCat(deps.db, catId);
  const [rows, caretaker] = await Promise.all([
    selectVisiblePosts(
      deps.db,
      viewer.userId,
      { catId: cat.id, located: true },
      { limit: CAT_MAP_POINTS_MAX },
    ),
    repo.isCaretaker(deps.db, cat.id, viewer.userId),
  ]);
  const points: CatMapResponse['points'] = [];
  for (const row of rows.slice(0, CAT_MAP_POINTS_MAX)) {
    const place = sightingPlace(viewer, cat, caretaker, row);
    if (place.latitude === null || place.longitude === null || place.locationPrecision === null) continue;
    points.push({
      postId: row.id,
      latitude: place.latitude,
      longitude: place.longitude,
      locationPrecision: place.locationPrecision,
      at: row.createdAt.toISOString(),
    });
  }
  return { points };
}

// ---------------------------------------------------------------------------------------------------
// The list: by name, nearest or newest first
// ---------------------------------------------------------------------------------------------------

/** Cursors of the list, base64url of JSON: {r, t, i} newest first, {r, d, i} nearest first. */
function encodeListCursor(value: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decodeListCursor(cursor: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // falls through to the refusal
  }
  throw badRequest(INVALID_CURSOR_MESSAGE);
}

const TIME_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z|-infinity)$/;
const UUID_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function newestCursor(cursor: string): repo.NewestCursor {
  const { r, t, i } = decodeListCursor(cursor);
  if (
    (r !== 0 && r !== 1) ||
    typeof t !== 'string' ||
    !TIME_KEY.test(t) ||
    typeof i !== 'string' ||
    !UUID_KEY.test(i)
  )
    throw badRequest(INVALID_CURSOR_MESSAGE);
  return { rank: r, lastSeen: t, id: i };
}

function nearestCursor(cursor: string): { rank: number; distance: number; id: string } {
  const { r, d, i } = decodeListCursor(cursor);
  // Infinity (a cat with no place the viewer may see) travels as the string 'inf'.
  const distance = d === 'inf' ? Number.POSITIVE_INFINITY : d;
  if (
    (r !== 0 && r !== 1) ||
    typeof distance !== 'number' ||
    Number.isNaN(distance) ||
    distance < 0 ||
    typeof i !== 'string' ||
    !UUID_KEY.test(i)
  )
    throw badRequest(INVALID_CURSOR_MESSAGE);
  return { rank: r, distance, id: i };
}

/** A cat of the near list with its distance as the viewer may measure it (Infinity: no place for them). */
interface Ranked {
  row: repo.CatListRow;
  distance: number;
}

/** The near list's order: rank, then distance (unplaced cats last), then id. */
function nearOrder(a: { rank: number; distance: number; id: string }, b: typeof a): number {
  return (
    a.rank - b.rank ||
    (a.distance === b.distance ? 0 : a.distance < b.distance ? -1 : 1) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * How far a sighting's spot can lie from its place as a viewer sees it: half a ~500 m cell's diagonal
 * (~357 m; location-grid.ts), with room to spare. A cat placed beyond D has its spot beyond D - this.
 */
const CELL_REACH_METRES = 400;
/**
 * How many cats of cat_places the list reads at first, nearest its point: a page's worth several times
 * over, so that the nearest page is among them unless the cats are packed tighter than a cell (then
 * four times as many are read).
 */
const NEAREST_READ_LIMIT = 128;
/** Farther than any two points of the Earth lie apart (pi * 6,371 km): a radius this wide holds them all. */
const WORLD_METRES = 20_100_000;

/**
 * Whether every point at least `degrees` from `near` on the plane of longitude and latitude (where
 * GiST's `<->` measures) lies farther than `metres` from it on the Earth. A path of length L metres
 * from `near` stays within latitudes |lat| + L / R, where a degree of longitude spans at least
 * R cos(that) and one of latitude R (in radians): so its two ends lie at most L / (R cos(that))
 * apart on the plane. That holds while such a path neither passes a pole nor crosses the 180th
 * meridian (where longitudes jump): then nothing can be said, and the answer is false.
 */
export function beyondInMetres(
  near: { latitude: number; longitude: number },
  degrees: number,
  metres: number,
): boolean {
  const rad = Math.PI / 180;
  const reach = metres / EARTH_METRES;
  const maxLatitude = Math.abs(near.latitude) * rad + reach;
  if (maxLatitude >= Math.PI / 2) return false;
  // The farthest a point within `metres` can lie on the plane, in degrees.
  const plane = reach / Math.cos(maxLatitude) / rad;
  if (Math.abs(near.longitude) + plane >= 180) return false;
  return degrees > plane;
}

/** The distance from `near` to where the viewer may see the cat (its newest sighting they may see). */
function distanceFor(
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
  row: repo.CatListRow,
) {
  if (!row.sighting) return Number.POSITIVE_INFINITY;
  return placedDistance(viewer, near, row, row.viewerIsCaretaker, row.sighting);
}

/** Where the viewer may see the cat (its newest sighting they may see), or null: nowhere. */
function placeOf(viewer: AuthContext, row: repo.CatListRow): { latitude: number; longitude: number } | null {
  if (!row.sighting) return null;
  const place = sightingPlace(viewer, row, row.viewerIsCaretaker, {
    ...row.sighting,
    authorCaresForCat: null,
  });
  return place.latitude === null || place.longitude === null
    ? null
    : { latitude: place.latitude, longitude: place.longitude };
}

/** The distance from `near` to where the viewer may see this sighting of this cat (cat-place.ts). */
function placedDistance(
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
  cat: CatHome,
  viewerIsCaretaker: boolean,
  sighting: LocatedPost,
) {
  // The lists' sightings passed sighting_kept_from in SQL (sighting-visibility.ts), which weighed the author.
  const place = sightingPlace(viewer, cat, viewerIsCaretaker, { ...sighting, authorCaresForCat: null });
  if (place.latitude === null || place.longitude === null) return Number.POSITIVE_INFINITY;
  return metresBetween(near, { latitude: place.latitude, longitude: place.longitude });
}

/**
 * Up to `limit` cats of the near list after the cursor, in its order: by rank (with a query: names
 * starting with it, then names containing it), then by distance from `near` to the cat's newest
 * sighting the viewer may see, AT THE PLACE THEY MAY SEE (cat-place.ts: exact, the ~500 m cell's
 * centre, or none), then by id; cats with no place for the viewer close each rank, by id.
 *
 * Paging is a keyset on (rank, distance, id): the cursor is the last cat's key, and a page is the cats
 * after it. The distance is a pure function of the cat's rows and the viewer, recomputed here the same
 * way on every request, so the key of a cat that has not changed is the same double each time, and a
 * page neither repeats nor skips one (a new sighting moves a cat, as it would in any live list).
 *
 * The placed cats of a rank are read nearest first rather than every cat: the cats of cat_places (each
 * one's newest sighting anyone may see, where it shows a place) come out of a GiST index in order of
 * their spots' distance, at most a page's worth several times over (NEAREST_READ_LIMIT); the few cats
 * the viewer may see otherwise (their own, cared for, hidden or blocked pictures) are read apart,
 * within the distance that page reaches. Each is placed as the viewer may see it, and the nearest
 * `limit` are the answer once the cats left unread are sure to lie farther (beyondInMetres: the index's
 * order is in degrees, a cat's place may lie a cell's reach nearer than its spot); else four times as
 * many are read. After a cursor, only cats with a sighting beyond its distance less a cell's reach are
 * read (CELL_REACH_METRES): a later page does not read the nearer ones again. The unplaced cats of the
 * rank follow by id (catsMaybeUnplaced, the one read of every cat of the rank, reached only at the end
 * of its placed ones).
 */
async function nearestCats(
  deps: CatsDeps,
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
  q: string | undefined,
  caredFor: boolean,
  after: { rank: number; distance: number; id: string } | null,
  limit: number,
): Promise<Ranked[]> {
  if (deps.nearStore && !q && !caredFor && !after) {
    const first = await firstPageNearest(deps.nearStore, viewer, near, limit);
    if (first) return first;
  }
  const found: Ranked[] = [];
  for (const rank of q ? [0, 1] : [0]) {
    if (after && rank < after.rank) continue;
    const from = after && rank === after.rank ? after : null;
    if (!from || Number.isFinite(from.distance)) {
      found.push(...(await placedNear(deps, viewer, near, q, caredFor, rank, from, limit - found.length)));
      if (found.length >= limit) break;
    }
    const afterId = from && !Number.isFinite(from.distance) ? from.id : null;
    found.push(...(await unplaced(deps, viewer, near, q, caredFor, rank, afterId, limit - found.length)));
    if (found.length >= limit) break;
  }
  return found.slice(0, limit);
}

/**
 * The first page of every cat nearest `near` (no name, no cursor, not 'only cats I care for': what the
 * cats page and the post menus ask first), from the process's caches (cats-near-store.ts) instead of
 * SQL: the same answer as placedNear's. Every cat the viewer sees as a stranger sees it is placed where
 * cat_places puts it for strangers, and its page row is a stranger's; the cats they may see otherwise
 * (their exceptions, read once per change) are placed from their own rows, as the long way places them.
 * Null when fewer placed cats than a page lie anywhere: the unplaced ones follow, which placedNear and
 * unplaced read.
 */
async function firstPageNearest(
  store: CatsNearStore,
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
  limit: number,
): Promise<Ranked[] | null> {
  await store.current();
  const exceptions = await store.exceptionsOf(viewer.userId, (row) => placeOf(viewer, row));
  const found: { id: string; rank: number; distance: number; row: repo.CatListRow | null }[] = [];
  for (const { row, latitude, longitude } of exceptions.placed) {
    found.push({ id: row.id, rank: 0, distance: metresBetween(near, { latitude, longitude }), row });
  }
  const strangers = store.nearest(near, limit, (id) => exceptions.ids.has(id));
  if (strangers.length + found.length < limit) return null;
  for (const s of strangers) found.push({ id: s.id, rank: 0, distance: s.distance, row: null });
  const page = found.sort(nearOrder).slice(0, limit);
  const rows = await store.strangerRowsOf(page.flatMap((x) => (x.row ? [] : [x.id])));
  // A cat deleted or merged since its place was read is left out of this page, as placedNear does.
  return page.flatMap((x) => {
    const row = x.row ?? rows.get(x.id);
    return row ? [{ row, distance: x.distance }] : [];
  });
}

/**
 * The nearest `wanted` placed cats of the rank after `from` (see nearestCats). The reads return a few
 * columns a cat, enough to place it as this viewer may see it; only the cats that make the page are
 * then read in full.
 */
async function placedNear(
  deps: CatsDeps,
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
  q: string | undefined,
  caredFor: boolean,
  rank: number,
  from: { rank: number; distance: number; id: string } | null,
  wanted: number,
): Promise<Ranked[]> {
  // After a cursor, a cat can count only if its newest sighting's spot lies beyond the cursor's
  // distance less a cell's reach: cats seen only nearer in are left in the index.
  const beyond = from ? from.distance - CELL_REACH_METRES : 0;
  const placed = (r: repo.NearRow) => ({
    id: r.id,
    rank,
    distance: placedDistance(viewer, near, r, r.viewerIsCaretaker, r.sighting),
  });
  const afterCursor = (x: { rank: number; distance: number; id: string }) =>
    Number.isFinite(x.distance) && (!from || nearOrder(x, from) > 0);
  let limit = NEAREST_READ_LIMIT;
  for (;;) {
    const rows = await repo.catsPlacedNearest(
      deps.db,
      viewer.userId,
      q,
      rank,
      { near, beyond, limit },
      caredFor,
    );
    const strangers = rows
      .filter((r) => r.listed)
      .map(placed)
      .filter(afterCursor)
      .sort(nearOrder);
    // Every row read and still short of a page (merged cats, or rows before the cursor): read more
    // before the cats seen otherwise, whose read would otherwise reach round the world.
    if (rows.length >= limit && strangers.length < wanted) {
      limit *= 4;
      continue;
    }
    // No page reaches past its `wanted`-th cat of cat_places: the cats seen otherwise are read within it.
    const reach = strangers.length >= wanted ? strangers[wanted - 1]!.distance : WORLD_METRES;
    const others = (
      await repo.catsSeenOtherwiseNear(
        deps.db,
        viewer.userId,
        q,
        rank,
        { near, beyond, boxes: suggestionBoxes(near, reach) },
        caredFor,
      )
    )
      .map(placed)
      .filter((x) => afterCursor(x) && x.distance <= reach);
    let page = [...strangers, ...others].sort(nearOrder).slice(0, wanted);
    // The rows of cat_places came nearest first, up to the limit. The ones left unread lie at least as
    // far in degrees as the last one read: enough were read when that puts their spots, and so their
    // places (a cell's reach nearer at most), beyond the page's last cat. Where degrees cannot tell
    // (far from the equator a degree of longitude is short; across the 180th meridian), every cat of
    // cat_places whose place can lie within the page's last cat is read from the boxes around it.
    if (rows.length >= limit) {
      // A full page: at least `wanted` cats of cat_places were placed (above).
      const last = page[wanted - 1]!.distance;
      const lastDegrees = Math.max(...rows.map((r) => r.degrees));
      if (!beyondInMetres(near, lastDegrees, last + CELL_REACH_METRES + 1)) {
        const seen = new Set(rows.map((r) => r.id));
        const boxed = (
          await repo.catsPlacedInBoxes(
            deps.db,
            viewer.userId,
            q,
            rank,
            { near, beyond, boxes: suggestionBoxes(near, last) },
            caredFor,
          )
        )
          .filter((r) => r.listed && !seen.has(r.id))
          .map(placed)
          .filter((x) => afterCursor(x) && x.distance <= last);
        page = [...page, ...boxed].sort(nearOrder).slice(0, wanted);
      }
    }
    const read = new Map(
      (
        await repo.catsWithNewestSightingByIds(
          deps.db,
          viewer.userId,
          page.map((x) => x.id),
          rank,
        )
      ).map((row) => [row.id, row]),
    );
    // A cat deleted or merged between the two reads is left out of this page.
    return page.flatMap((x) => {
      const row = read.get(x.id);
      return row ? [{ row, distance: x.distance }] : [];
    });
  }
}

/** Batches in which the rank's possibly unplaced cats are read until enough turn out unplaced. */
const UNPLACED_BATCH = 100;

/** The rank's cats with no place for the viewer after `afterId`, by id, at most `wanted`. */
async function unplaced(
  deps: CatsDeps,
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
  q: string | undefined,
  caredFor: boolean,
  rank: number,
  afterId: string | null,
  wanted: number,
): Promise<Ranked[]> {
  const found: Ranked[] = [];
  let cursor = afterId;
  while (found.length < wanted) {
    const rows = await repo.catsMaybeUnplaced(
      deps.db,
      viewer.userId,
      q,
      rank,
      cursor,
      UNPLACED_BATCH,
      caredFor,
    );
    for (const row of rows) {
      const distance = distanceFor(viewer, near, row);
      if (!Number.isFinite(distance)) found.push({ row, distance });
    }
    if (rows.length < UNPLACED_BATCH) break;
    cursor = rows.at(-1)!.id;
  }
  return found.slice(0, wanted);
}

/**
 * Cats by name (q: case-insensitive, names starting with it first, then names containing it), nearest
 * first to `near` or else newest sighting first. Nearness is measured from the cat's newest sighting
 * the viewer may see, AT THE PLACE THE VIEWER MAY SEE (its cell, or nothing): the order can never tell
 * more than the answers do. Cats with no such place come after the placed ones.
 */
export async function listCats(
  deps: CatsDeps,
  viewer: AuthContext,
  query: {
    q?: string | undefined;
    near?: { latitude: number; longitude: number } | undefined;
    cursor?: string | undefined;
    caredFor?: boolean | undefined;
  },
): Promise<CatsResponse> {
  const q = query.q ? query.q : undefined;
  const caredFor = query.caredFor === true;
  let page: repo.CatListRow[];
  let nextCursor: string | null = null;
  if (query.near) {
    const after = query.cursor ? nearestCursor(query.cursor) : null;
    const rows = await nearestCats(deps, viewer, query.near, q, caredFor, after, CATS_PAGE_SIZE + 1);
    const taken = rows.slice(0, CATS_PAGE_SIZE);
    page = taken.map((x) => x.row);
    const last = taken.at(-1);
    if (rows.length > CATS_PAGE_SIZE && last) {
      nextCursor = encodeListCursor({
        r: last.row.rank,
        d: Number.isFinite(last.distance) ? last.distance : 'inf',
        i: last.row.id,
      });
    }
  } else {
    const cursor = query.cursor ? newestCursor(query.cursor) : null;
    const rows = await repo.listCatsWithNewestSighting(
      deps.db,
      viewer.userId,
      q,
      { cursor, limit: CATS_PAGE_SIZE },
      caredFor,
    );
    page = rows.slice(0, CATS_PAGE_SIZE);
    const last = page.at(-1);
    if (rows.length > CATS_PAGE_SIZE && last) {
      nextCursor = encodeListCursor({
        r: last.rank,
        t: last.sighting?.createdKey ?? '-infinity',
        i: last.id,
      });
    }
  }
  return {
    cats: page.map((row) => ({
      _id: row.id,
      name: row.name,
      cover: toCover(deps, row.cover ?? row.sighting),
      living: row.living as Cat['living'],
      viewerIsCaretaker: row.viewerIsCaretaker,
      lastSeenAt: row.sighting ? row.sighting.createdAt.toISOString() : null,
      missing: row.missing,
    })),
    info: { nextCursor },
  };
}

// ---------------------------------------------------------------------------------------------------
// 'Which cat is this?' on Spot
// ---------------------------------------------------------------------------------------------------

/** The Earth's radius as metres_between and metresBetween take it. */
const EARTH_METRES = 6_371_000;
const DEGREE_METRES = (EARTH_METRES * Math.PI) / 180;

/**
 * Where a sighting can lie for its place as the viewer may see it to fall within `metres` of `near`:
 * the place is the spot itself or the centre of its grid cell, at most half a cell from it, so the
 * search reaches half a cell further in each direction (a row's height; the widest column of the rows
 * it touches). One rectangle, or two where it crosses the antimeridian. Only a pre-filter on an index:
 * each sighting is then placed and measured exactly.
 */
export function suggestionBoxes(near: { latitude: number; longitude: number }, metres: number): repo.Box[] {
  const reach = metres / DEGREE_METRES;
  const south = Math.max(-90, near.latitude - reach - LOCATION_GRID_DEGREES / 2);
  const north = Math.min(90, near.latitude + reach + LOCATION_GRID_DEGREES / 2);
  const widest = Math.max(
    ...[south, north].map((lat) => {
      const cell = locationCell(lat, near.longitude);
      return cell.east - cell.west;
    }),
  );
  // The band's edge farthest from the equator has the shortest degree of longitude.
  const cos = Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180);
  const span = cos > 1e-6 ? (reach / cos) * 1.01 + widest / 2 : 360;
  if (span >= 180) return [{ south, north, west: -180, east: 180 }];
  const west = near.longitude - span;
  const east = near.longitude + span;
  if (west < -180)
    return [
      { south, north, west: west + 360, east: 180 },
      { south, north, west: -180, east },
    ];
  if (east > 180)
    return [
      { south, north, west, east: 180 },
      { south, north, west: -180, east: east - 360 },
    ];
  return [{ south, north, west, east }];
}

/**
 * Up to CAT_SUGGESTION_LIMIT cats seen within CAT_SUGGESTION_METRES of `near` in the last
 * CAT_SUGGESTION_DAYS days, nearest first, then the most recently seen (then by id, so the order is
 * stable). A sighting counts only where the viewer may see its post, and it is measured FROM THE PLACE
 * THE VIEWER MAY SEE (cat-place.ts: exact for their own posts, their groups' and exact-public authors',
 * the ~500 m cell's centre for others, nothing when the location is off or near a household cat's home):
 * an attacker asking at many points around a sighting learns its cell, which its post shows anyway, and
 * never the spot (docs/security.md, "Cats").
 */
export async function suggestCats(
  deps: CatsDeps,
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
): Promise<CatSuggestionsResponse> {
  const found = await Promise.all(
    suggestionBoxes(near, CAT_SUGGESTION_METRES).map((area) =>
      repo.recentSightingsInBox(deps.db, viewer.userId, area, CAT_SUGGESTION_DAYS),
    ),
  );
  interface Candidate {
    catId: string;
    name: string;
    living: Cat['living'];
    missing: boolean;
    coverPostId: string | null;
    distance: number;
    /** The newest of its sightings that count: the order's second key, and the cover when none is set. */
    newest: repo.SuggestionSightingRow;
  }
  const byCat = new Map<string, Candidate>();
  for (const row of found.flat()) {
    const cat = { living: row.living, homeLatitude: row.homeLatitude, homeLongitude: row.homeLongitude };
    // Passed sighting_kept_from in SQL (recentSightingsInBox), which weighed the author.
    const place = sightingPlace(viewer, cat, row.viewerIsCaretaker, { ...row, authorCaresForCat: null });
    if (place.latitude === null || place.longitude === null) continue;
    const distance = metresBetween(near, { latitude: place.latitude, longitude: place.longitude });
    if (distance > CAT_SUGGESTION_METRES) continue;
    const seen = byCat.get(row.catId);
    if (!seen) {
      byCat.set(row.catId, {
        catId: row.catId,
        name: row.catName,
        living: row.living as Cat['living'],
        missing: row.catMissing,
        coverPostId: row.coverPostId,
        distance,
        newest: row,
      });
      continue;
    }
    seen.distance = Math.min(seen.distance, distance);
    if (row.createdAt > seen.newest.createdAt) seen.newest = row;
  }
  const chosen = [...byCat.values()]
    .sort(
      (a, b) =>
        a.distance - b.distance ||
        b.newest.createdAt.getTime() - a.newest.createdAt.getTime() ||
        (a.catId < b.catId ? -1 : a.catId > b.catId ? 1 : 0),
    )
    .slice(0, CAT_SUGGESTION_LIMIT);
  // Pictures: the chosen cover where the viewer may see it (still one of the cat's sightings), else the
  // newest sighting that counted. A chosen cover among the sightings just read needs no second look
  // (each of them the viewer may see, of its cat); the others are asked for in one statement.
  const read = new Map(found.flat().map((row) => [row.postId, row]));
  const coverRead = (c: Candidate) => {
    const row = c.coverPostId ? read.get(c.coverPostId) : undefined;
    return row?.catId === c.catId ? row : undefined;
  };
  const toCheck = chosen.filter((c) => c.coverPostId !== null && !coverRead(c)).map((c) => c.catId);
  // Whether the viewer cares for each cat: Spot offers a household cat to its caretakers alone
  // (decision 022). The sightings' statement asks it only where the home rule needs it.
  const [checked, caredFor] = await Promise.all([
    repo.suggestionCovers(deps.db, viewer.userId, toCheck),
    repo.caredForAmong(
      deps.db,
      viewer.userId,
      chosen.map((c) => c.catId),
    ),
  ]);
  const pictureOf = (c: Candidate) => coverRead(c) ?? checked.find((p) => p.catId === c.catId) ?? c.newest;
  return {
    cats: chosen.map((c) => ({
      _id: c.catId,
      name: c.name,
      cover: toCover(deps, pictureOf(c)),
      living: c.living,
      viewerIsCaretaker: caredFor.has(c.catId),
      missing: c.missing,
    })),
  };
}

// ---------------------------------------------------------------------------------------------------
// Following and caretakers
// ---------------------------------------------------------------------------------------------------

export async function setFollowing(
  deps: CatsDeps,
  viewer: AuthContext,
  catId: string,
  following: boolean,
): Promise<{ following: boolean; followerCount: number }> {
  const id = await deps.db.transaction(async (tx) => {
    // Shared with a merge of the cat: a follow made meanwhile follows it to the survivor.
    const cat = await requireCat(tx, catId, 'share');
    if (following) await repo.follow(tx, cat.id, viewer.userId);
    else await repo.unfollow(tx, cat.id, viewer.userId);
    return cat.id;
  });
  const state = await repo.followState(deps.db, id, viewer.userId);
  return { following: state.following, followerCount: state.count };
}

/**
 * A caretaker adds or removes a caretaker (themself included). Users behind a block either way are
 * unknown here as everywhere; the demo account cares for no cat (its password is public). The cat row
 * is locked so that two removals at once cannot leave it without a caretaker.
 */
export async function changeCaretaker(
  deps: CatsDeps,
  viewer: AuthContext,
  catId: string,
  userId: string,
  add: boolean,
): Promise<{ caretakers: UserSummary[] }> {
  const id = await deps.db.transaction(async (tx) => {
    const cat = await requireCaretaker(tx, viewer, catId, 'update');
    const user = await repo.userVisibleTo(tx, userId, viewer.userId);
    if (!user) throw notFound(CAT_MESSAGES.caretakerUnknown);
    if (add) {
      if (user.id === DEMO_USER_ID) throw badRequest(CAT_MESSAGES.caretakerDemo);
      await repo.addCaretaker(tx, cat.id, user.id);
    } else if (await repo.isCaretaker(tx, cat.id, user.id)) {
      if ((await repo.caretakerCount(tx, cat.id)) <= 1) throw conflict(CAT_MESSAGES.lastCaretaker);
      await repo.removeCaretaker(tx, cat.id, user.id);
    }
    return cat.id;
  });
  const caretakers = await repo.caretakersVisibleTo(deps.db, id, viewer.userId);
  return { caretakers: caretakers.map((u) => toUserSummary(viewer, u, deps.publicBase)) };
}
