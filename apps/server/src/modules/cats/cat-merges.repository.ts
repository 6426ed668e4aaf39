import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { isUuid } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import {
  catCaretakers,
  catFollows,
  catMergeCaretakers,
  catMergeFollows,
  catMerges,
  catMergeSightings,
  cats,
  notifications,
  posts,
  users,
  type CatMergeRow,
  type CatRow,
} from '../../db/schema/index.ts';
import { notBlockedWith } from '../visibility/visibility.ts';

/**
 * SQL of merges (issue 26): a duplicate profile's sightings, followers and caretakers move to the
 * surviving cat, each move recorded (cat_merge_sightings, cat_merge_follows, cat_merge_caretakers) so
 * that an undo moves exactly that back. The service locks both cats first (lockCats).
 */

/** Both cats, locked FOR UPDATE in the order of their ids (two merges of the same pair cannot deadlock). */
export async function lockCats(db: Executor, ids: readonly string[]): Promise<CatRow[]> {
  return db
    .select()
    .from(cats)
    .where(inArray(cats.id, [...ids]))
    .orderBy(cats.id)
    .for('update');
}

export async function insertMerge(db: Executor, values: typeof catMerges.$inferInsert): Promise<CatMergeRow> {
  const [row] = await db.insert(catMerges).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** The merge, locked for its undo; null when unknown or malformed. */
export async function findMerge(db: Executor, mergeId: string): Promise<CatMergeRow | null> {
  if (!isUuid(mergeId)) return null;
  const [row] = await db
    .select()
    .from(catMerges)
    .where(eq(catMerges.id, mergeId.toLowerCase()))
    .for('update');
  return row ?? null;
}

export async function markMerged(db: Executor, duplicateId: string, survivorId: string | null) {
  await db
    .update(cats)
    .set({ mergedInto: survivorId, updatedAt: sql`now()` })
    .where(eq(cats.id, duplicateId));
}

export async function markUndone(db: Executor, mergeId: string, userId: string): Promise<void> {
  await db
    .update(catMerges)
    .set({ undoneBy: userId, undoneAt: sql`now()` })
    .where(eq(catMerges.id, mergeId));
}

/**
 * posts.cat_id changes below are old sightings changing profile: the sighting trigger must not tell the
 * followers about them as new (migration 0020). Transaction-local, switched off again at once.
 */
async function withoutSightingNotices(db: Executor, move: () => Promise<void>): Promise<void> {
  await db.execute(sql`select set_config('cats.moving_sightings', 'on', true)`);
  await move();
  await db.execute(sql`select set_config('cats.moving_sightings', 'off', true)`);
}

/**
 * Every post linked to the duplicate (trashed ones too: restored, they are the survivor's) moves to the
 * survivor, and the followers' existing sighting entries with them, unannounced: the entries stay as
 * they were, read and unread, now naming the cat the picture shows.
 */
export async function moveSightings(
  db: Executor,
  mergeId: string,
  duplicateId: string,
  survivorId: string,
): Promise<void> {
  await db.execute(sql`insert into ${catMergeSightings} (merge_id, post_id)
    select ${mergeId}, p.id from ${posts} p where p.cat_id = ${duplicateId}`);
  await withoutSightingNotices(db, async () => {
    await db.update(posts).set({ catId: survivorId }).where(eq(posts.catId, duplicateId));
    await db
      .update(notifications)
      .set({ catId: survivorId })
      .where(and(eq(notifications.type, 'cat_sighting'), eq(notifications.catId, duplicateId)));
  });
}

/**
 * The undo: the sightings the merge moved go back to the duplicate, unless their author has linked
 * them elsewhere since (then they stay where the author put them); sightings linked to the survivor
 * after the merge stay. The survivor's cover goes with its post, as in setPostCat.
 */
export async function moveSightingsBack(
  db: Executor,
  mergeId: string,
  duplicateId: string,
  survivorId: string,
): Promise<void> {
  const moved = sql`(select ms.post_id from ${catMergeSightings} ms where ms.merge_id = ${mergeId})`;
  await withoutSightingNotices(db, async () => {
    await db
      .update(posts)
      .set({ catId: duplicateId })
      .where(and(eq(posts.catId, survivorId), sql`${posts.id} in ${moved}`));
    await db
      .update(notifications)
      .set({ catId: duplicateId })
      .where(
        and(
          eq(notifications.type, 'cat_sighting'),
          eq(notifications.catId, survivorId),
          sql`${notifications.postId} in (select p.id from ${posts} p where p.cat_id = ${duplicateId})`,
        ),
      );
  });
  await db
    .update(cats)
    .set({ coverPostId: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(cats.id, survivorId),
        sql`${cats.coverPostId} in (select p.id from ${posts} p where p.cat_id = ${duplicateId})`,
      ),
    );
}

type People = typeof catFollows | typeof catCaretakers;
type Moved = typeof catMergeFollows | typeof catMergeCaretakers;

/**
 * The duplicate's followers (or caretakers) become the survivor's: recorded with when they began and
 * whether the merge made them the survivor's (someone who followed both is not 'added').
 */
async function movePeople(
  db: Executor,
  people: People,
  moved: Moved,
  mergeId: string,
  duplicateId: string,
  survivorId: string,
): Promise<void> {
  await db.execute(sql`insert into ${moved} (merge_id, user_id, since, added)
    select ${mergeId}, d.user_id, d.created_at,
      not exists (select 1 from ${people} s where s.cat_id = ${survivorId} and s.user_id = d.user_id)
    from ${people} d where d.cat_id = ${duplicateId}`);
  await db.execute(sql`insert into ${people} (cat_id, user_id, created_at)
    select ${survivorId}, m.user_id, m.since from ${moved} m where m.merge_id = ${mergeId} and m.added
    on conflict do nothing`);
  await db.execute(sql`delete from ${people} d where d.cat_id = ${duplicateId}`);
}

export const moveFollowers = (db: Executor, mergeId: string, duplicateId: string, survivorId: string) =>
  movePeople(db, catFollows, catMergeFollows, mergeId, duplicateId, survivorId);
export const moveCaretakers = (db: Executor, mergeId: string, duplicateId: string, survivorId: string) =>
  movePeople(db, catCaretakers, catMergeCaretakers, mergeId, duplicateId, survivorId);

/**
 * The undo of movePeople: everyone it moved is the duplicate's again (since when they were before),
 * and the survivor loses those the merge added. `keep`: someone who stays the survivor's whatever the
 * record says (the caretaker undoing, when no caretaker of the survivor's own is left).
 */
async function movePeopleBack(
  db: Executor,
  people: People,
  moved: Moved,
  mergeId: string,
  duplicateId: string,
  survivorId: string,
  keep: string | null,
): Promise<void> {
  await db.execute(sql`insert into ${people} (cat_id, user_id, created_at)
    select ${duplicateId}, m.user_id, m.since from ${moved} m where m.merge_id = ${mergeId}
    on conflict do nothing`);
  await db.execute(sql`delete from ${people} s where s.cat_id = ${survivorId}
    and s.user_id in (select m.user_id from ${moved} m where m.merge_id = ${mergeId} and m.added)
    and s.user_id is distinct from ${keep}::uuid`);
}

export const moveFollowersBack = (db: Executor, mergeId: string, duplicateId: string, survivorId: string) =>
  movePeopleBack(db, catFollows, catMergeFollows, mergeId, duplicateId, survivorId, null);

/**
 * The caretakers go back; a cat keeps at least one caretaker, so when only those the merge added still
 * care for the survivor, the one undoing stays (and the duplicate, if nobody it had is left, gets them).
 */
export async function moveCaretakersBack(
  db: Executor,
  mergeId: string,
  duplicateId: string,
  survivorId: string,
  undoneBy: string,
): Promise<void> {
  const [own] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(catCaretakers)
    .where(
      and(
        eq(catCaretakers.catId, survivorId),
        sql`${catCaretakers.userId} not in (select m.user_id from ${catMergeCaretakers} m
          where m.merge_id = ${mergeId} and m.added)`,
      ),
    );
  const keep = (own?.n ?? 0) > 0 ? null : undoneBy;
  await movePeopleBack(db, catCaretakers, catMergeCaretakers, mergeId, duplicateId, survivorId, keep);
  await db.execute(sql`insert into ${catCaretakers} (cat_id, user_id)
    select ${duplicateId}, ${undoneBy} where not exists (
      select 1 from ${catCaretakers} c where c.cat_id = ${duplicateId})`);
}

export interface MergeHistoryRow {
  id: string;
  catId: string;
  catName: string;
  /** Whether the survivor was merged into another cat since (then this merge cannot be undone). */
  catMergedInto: string | null;
  duplicateId: string;
  duplicateName: string;
  mergedAt: Date;
  /** merged_at in UTC with microseconds, for cursors. */
  mergedKey: string;
  undoneAt: Date | null;
  mergedBy: { id: string; username: string; profilePicKey: string | null } | null;
  undoneBy: { id: string; username: string; profilePicKey: string | null } | null;
  viewerCaresForCat: boolean;
}

/** Which merges mergeHistory reads: that one merge, or a page of the history after a cursor (limit + 1 rows). */
export type MergeHistoryScope =
  { only: string } | { cursor: { mergedAt: string; id: string } | null; limit: number };

/**
 * The merges the cat took part in, as survivor or duplicate, and those of the profiles merged into it
 * (through every merge in force: its history is theirs), newest first, with who merged and who undid,
 * left out (null) when the viewer shares a block with them. Paged by keyset on (merged_at, id), newest
 * first (cat_merges_cat_idx and cat_merges_duplicate_idx give each cat's merges).
 */
export async function mergeHistory(
  db: Executor,
  catId: string,
  viewerId: string,
  scope: MergeHistoryScope,
): Promise<MergeHistoryRow[]> {
  const family = sql`(with recursive family(id) as (
      select ${catId}::uuid union select c.id from ${cats} c join family f on c.merged_into = f.id
    ) select id from family)`;
  const survivor = alias(cats, 'survivor');
  const duplicate = alias(cats, 'duplicate');
  const merger = alias(users, 'merger');
  const undoer = alias(users, 'undoer');
  const rows = await db
    .select({
      id: catMerges.id,
      catId: catMerges.catId,
      catName: survivor.name,
      catMergedInto: survivor.mergedInto,
      duplicateId: catMerges.duplicateCatId,
      duplicateName: duplicate.name,
      mergedAt: catMerges.mergedAt,
      mergedKey: sql<string>`to_char(${catMerges.mergedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      undoneAt: catMerges.undoneAt,
      mergerId: merger.id,
      mergerName: merger.username,
      mergerPic: merger.profilePicKey,
      undoerId: undoer.id,
      undoerName: undoer.username,
      undoerPic: undoer.profilePicKey,
      viewerCaresForCat: sql<boolean>`exists (select 1 from ${catCaretakers} vc
        where vc.cat_id = ${catMerges.catId} and vc.user_id = ${viewerId})`.mapWith(Boolean),
    })
    .from(catMerges)
    .innerJoin(survivor, eq(survivor.id, catMerges.catId))
    .innerJoin(duplicate, eq(duplicate.id, catMerges.duplicateCatId))
    .leftJoin(merger, and(eq(merger.id, catMerges.mergedBy), notBlockedWith(viewerId, merger.id)))
    .leftJoin(undoer, and(eq(undoer.id, catMerges.undoneBy), notBlockedWith(viewerId, undoer.id)))
    .where(
      'only' in scope
        ? eq(catMerges.id, scope.only)
        : and(
            or(inArray(catMerges.catId, family), inArray(catMerges.duplicateCatId, family)),
            scope.cursor
              ? sql`(${catMerges.mergedAt}, ${catMerges.id}) < (${scope.cursor.mergedAt}::timestamptz, ${scope.cursor.id}::uuid)`
              : undefined,
          ),
    )
    .orderBy(desc(catMerges.mergedAt), desc(catMerges.id))
    .limit('only' in scope ? 1 : scope.limit + 1);
  return rows.map((r) => ({
    id: r.id,
    catId: r.catId,
    catName: r.catName,
    catMergedInto: r.catMergedInto,
    duplicateId: r.duplicateId,
    duplicateName: r.duplicateName,
    mergedAt: r.mergedAt,
    mergedKey: r.mergedKey,
    undoneAt: r.undoneAt,
    mergedBy: r.mergerId ? { id: r.mergerId, username: r.mergerName!, profilePicKey: r.mergerPic } : null,
    undoneBy: r.undoerId ? { id: r.undoerId, username: r.undoerName!, profilePicKey: r.undoerPic } : null,
    viewerCaresForCat: r.viewerCaresForCat,
  }));
}
