// A cat itself: its profile (read, create, edit), linking posts to it, following and caretakers; and
// what the other cat services share (CatsDeps, requireCat, toCover). The lists are cats-list.service.ts.
import {
  CAT_MESSAGES,
  DEMO_USER_ID,
  type Cat,
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
import { imageVariantUrls } from '../posts/post-view.ts';
import { selectVisiblePosts, type PostViewRow } from '../posts/posts.repository.ts';
import { sightingPlace } from '../visibility/cat-place.ts';
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

export function toCover(deps: CatsDeps, source: CoverRow | null): CatSummary['cover'] {
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
