import {
  CAT_HISTORY_PAGE_SIZE,
  CAT_MERGE_UNDO_DAYS,
  CAT_MESSAGES,
  type CatHistoryResponse,
  type CatMerge,
  type MergeCatsResponse,
  type UndoMergeResponse,
} from '@cats/contracts';
import type { CatRow } from '../../db/schema/index.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/http-errors.ts';
import { toUserSummary } from '../visibility/user-summary.ts';
import { decodeCursor, encodeCursor } from '../posts/post-view.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import * as merges from './cat-merges.repository.ts';
import { getCat, requireCat, type CatsDeps } from './cats.service.ts';
import * as cats from './cats.repository.ts';
import * as missing from './missing/missing.repository.ts';
import { DAY_MS } from '../../lib/durations.ts';

export const CATS_MERGED_MESSAGE = 'Cats merged';
export const MERGE_UNDONE_MESSAGE = 'Merge undone';
const UNDO_MS = CAT_MERGE_UNDO_DAYS * DAY_MS;

/**
 * Two profiles of one cat (issue 26, "Linking sightings"): a caretaker of both merges the duplicate
 * into the surviving cat. The duplicate's sightings, followers and caretakers move; its row stays,
 * marked merged_into, so that its id leads to the survivor (cats.service.ts requireCat) and the merge
 * can be undone for CAT_MERGE_UNDO_DAYS. Neither a merge nor its undo tells anyone of a new sighting
 * (migration 0020). The demo account is refused by the routes.
 */
export async function mergeCats(
  deps: CatsDeps,
  viewer: AuthContext,
  catId: string,
  duplicateCatId: string,
): Promise<MergeCatsResponse> {
  if (catId.toLowerCase() === duplicateCatId.toLowerCase()) throw badRequest(CAT_MESSAGES.mergeSameCat);
  const merge = await deps.db.transaction(async (tx) => {
    // As stored, not followed through merges: merging into or from a merged profile is refused.
    const [asked, duplicateAsked] = await Promise.all([
      cats.findCat(tx, catId),
      cats.findCat(tx, duplicateCatId),
    ]);
    // A cat a moderator removed (issue 27) is gone for merges too.
    if (!asked || !duplicateAsked || asked.removedAt || duplicateAsked.removedAt)
      throw notFound(CAT_MESSAGES.notFound);
    const locked = await merges.lockCats(tx, [asked.id, duplicateAsked.id]);
    const survivor = locked.find((c) => c.id === asked.id);
    const duplicate = locked.find((c) => c.id === duplicateAsked.id);
    if (!survivor || !duplicate) throw notFound(CAT_MESSAGES.notFound);
    if (survivor.mergedInto) throw conflict(CAT_MESSAGES.survivorMerged);
    if (duplicate.mergedInto) throw conflict(CAT_MESSAGES.duplicateMerged);
    const [caresForSurvivor, caresForDuplicate] = await Promise.all([
      cats.isCaretaker(tx, survivor.id, viewer.userId),
      cats.isCaretaker(tx, duplicate.id, viewer.userId),
    ]);
    if (!caresForSurvivor || !caresForDuplicate) throw forbidden(CAT_MESSAGES.mergeNotCaretaker);
    // A missing-cat alert, its reports and the neighbours it told belong to the profile it was raised
    // on: moving them would change what people were told, so the duplicate's open alert ends first.
    const alert = await missing.openAlertOfCat(tx, duplicate.id);
    if (alert && alert.expiresAt > new Date()) throw conflict(CAT_MESSAGES.mergeDuplicateMissing);

    const home = adoptedHome(survivor, duplicate);
    const row = await merges.insertMerge(tx, {
      catId: survivor.id,
      duplicateCatId: duplicate.id,
      mergedBy: viewer.userId,
      homeAdopted: home !== null,
      livingBefore: home ? survivor.living : null,
    });
    await merges.moveSightings(tx, row.id, duplicate.id, survivor.id);
    await merges.moveFollowers(tx, row.id, duplicate.id, survivor.id);
    await merges.moveCaretakers(tx, row.id, duplicate.id, survivor.id);
    await merges.markMerged(tx, duplicate.id, survivor.id);
    if (home) await cats.updateCat(tx, survivor.id, { living: 'household', ...home });
    return row;
  });
  const [cat, view] = await Promise.all([
    getCat(deps, viewer, merge.catId),
    mergeView(deps, viewer, merge.id, merge.catId),
  ]);
  return { message: CATS_MERGED_MESSAGE, cat, merge: view };
}

/**
 * A household duplicate's home point, when the survivor has none: its sightings near that home were
 * its caretakers' business (migration 0018) and stay so as the survivor's. An undo gives it back.
 */
function adoptedHome(survivor: CatRow, duplicate: CatRow) {
  if (survivor.homeLatitude !== null || duplicate.living !== 'household') return null;
  if (duplicate.homeLatitude === null || duplicate.homeLongitude === null) return null;
  return { homeLatitude: duplicate.homeLatitude, homeLongitude: duplicate.homeLongitude };
}

/**
 * A caretaker of the surviving cat undoes a merge within CAT_MERGE_UNDO_DAYS: exactly the sightings,
 * follows and caretakers it moved go back; sightings linked to the survivor since stay. Refused when
 * already undone, too old, or when the survivor was merged into another cat since (undo that first).
 */
export async function undoMerge(
  deps: CatsDeps,
  viewer: AuthContext,
  catId: string,
  mergeId: string,
): Promise<UndoMergeResponse> {
  const done = await deps.db.transaction(async (tx) => {
    // The cat as stored (not followed through merges): the merge is one of its own, either way.
    const cat = await cats.findCat(tx, catId);
    if (!cat || cat.removedAt) throw notFound(CAT_MESSAGES.notFound);
    const merge = await merges.findMerge(tx, mergeId);
    if (!merge || (merge.catId !== cat.id && merge.duplicateCatId !== cat.id))
      throw notFound(CAT_MESSAGES.mergeNotFound);
    const locked = await merges.lockCats(tx, [merge.catId, merge.duplicateCatId]);
    const survivor = locked.find((c) => c.id === merge.catId);
    const duplicate = locked.find((c) => c.id === merge.duplicateCatId);
    if (!survivor || !duplicate) throw notFound(CAT_MESSAGES.mergeNotFound);
    // Merged on since, the survivor has no caretakers of its own to ask: the later merge is the answer.
    if (survivor.mergedInto && !merge.undoneAt) throw conflict(CAT_MESSAGES.undoLaterMerge);
    if (!(await cats.isCaretaker(tx, survivor.id, viewer.userId)))
      throw forbidden(CAT_MESSAGES.undoNotCaretaker);
    if (merge.undoneAt || duplicate.mergedInto !== survivor.id)
      throw conflict(CAT_MESSAGES.undoAlreadyUndone);
    if (Date.now() - merge.mergedAt.getTime() > UNDO_MS) throw conflict(CAT_MESSAGES.undoExpired);

    await merges.markMerged(tx, duplicate.id, null);
    await merges.moveSightingsBack(tx, merge.id, duplicate.id, survivor.id);
    await merges.moveFollowersBack(tx, merge.id, duplicate.id, survivor.id);
    await merges.moveCaretakersBack(tx, merge.id, duplicate.id, survivor.id, viewer.userId);
    // The home point taken from the duplicate goes, unless a caretaker has set another since.
    if (
      merge.homeAdopted &&
      merge.livingBefore !== null &&
      survivor.homeLatitude === duplicate.homeLatitude &&
      survivor.homeLongitude === duplicate.homeLongitude
    ) {
      await cats.updateCat(tx, survivor.id, {
        homeLatitude: null,
        homeLongitude: null,
        living: merge.livingBefore,
      });
    }
    await merges.markUndone(tx, merge.id, viewer.userId);
    return merge;
  });
  return { message: MERGE_UNDONE_MESSAGE, merge: await mergeView(deps, viewer, done.id, done.catId) };
}

/**
 * GET /api/cats/{catId}/history: the merges the cat took part in, either way, newest first, a page at
 * a time after the cursor (the feed's: merged_at with microseconds and the merge's id; 400 otherwise).
 */
export async function catHistory(
  deps: CatsDeps,
  viewer: AuthContext,
  catId: string,
  cursor: string | undefined,
): Promise<CatHistoryResponse> {
  const cat = await requireCat(deps.db, catId);
  const position = cursor ? decodeCursor(cursor) : null;
  const rows = await merges.mergeHistory(deps.db, cat.id, viewer.userId, {
    cursor: position ? { mergedAt: position.createdAt, id: position.id } : null,
    limit: CAT_HISTORY_PAGE_SIZE,
  });
  const page = rows.slice(0, CAT_HISTORY_PAGE_SIZE);
  const last = page.at(-1);
  return {
    merges: page.map((row) => toMerge(deps, viewer, row)),
    info: {
      nextCursor:
        rows.length > CAT_HISTORY_PAGE_SIZE && last
          ? encodeCursor({ createdKey: last.mergedKey, id: last.id })
          : null,
    },
  };
}

async function mergeView(
  deps: CatsDeps,
  viewer: AuthContext,
  mergeId: string,
  catId: string,
): Promise<CatMerge> {
  const [row] = await merges.mergeHistory(deps.db, catId, viewer.userId, { only: mergeId });
  if (!row) throw notFound(CAT_MESSAGES.mergeNotFound);
  return toMerge(deps, viewer, row);
}

function toMerge(deps: CatsDeps, viewer: AuthContext, row: merges.MergeHistoryRow): CatMerge {
  const undoUntil = new Date(row.mergedAt.getTime() + UNDO_MS);
  const user = (u: merges.MergeHistoryRow['mergedBy']) =>
    u ? toUserSummary(viewer, u, deps.publicBase) : null;
  return {
    _id: row.id,
    cat: { _id: row.catId, name: row.catName },
    duplicate: { _id: row.duplicateId, name: row.duplicateName },
    mergedBy: user(row.mergedBy),
    mergedAt: row.mergedAt.toISOString(),
    undoneBy: user(row.undoneBy),
    undoneAt: row.undoneAt ? row.undoneAt.toISOString() : null,
    undoUntil: undoUntil.toISOString(),
    canUndo:
      !viewer.isDemo &&
      row.viewerCaresForCat &&
      row.undoneAt === null &&
      row.catMergedInto === null &&
      Date.now() <= undoUntil.getTime(),
  };
}
