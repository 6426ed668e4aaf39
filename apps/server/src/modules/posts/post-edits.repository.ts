/**
 * Edits and their history (issue 24): the owner's edit of a post's text or place, and the earlier
 * versions of its text.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { postVersions, posts } from '../../db/schema/index.ts';

export interface PostText {
  caption: string;
  catName: string | null;
  altText: string | null;
}

/** Where the picture was taken, as the owner sets it in an edit; null removes it. */
export type PostPlace = { latitude: number; longitude: number } | null;

export interface PostEdit extends Partial<PostText> {
  /** Left out: the location stays as it is. */
  location?: PostPlace;
}

/**
 * exifData without the photo's own GPS (the Spot screen sends it there too). It is never served, but a
 * place the owner removed or corrected should be gone from the database, not kept in a copy.
 */
const GPS_KEY = /^(latitude|longitude|gps)/i;
function withoutGps(exifData: string | null): string | null {
  if (exifData === null) return null;
  try {
    const parsed: unknown = JSON.parse(exifData);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return exifData;
    return JSON.stringify(Object.fromEntries(Object.entries(parsed).filter(([key]) => !GPS_KEY.test(key))));
  } catch {
    return null;
  }
}

/**
 * Applies the owner's edit to their live post, in one transaction: the post row is locked first, so
 * two edits at once number their versions one after the other. A change of text keeps the version it
 * replaces and marks the post edited; a change of place moves the post (the explore map's change log
 * follows from the row's trigger, in the same transaction) without a version: the history is read by
 * everyone who sees the post and may never hold an exact place. Removing the place also switches the
 * location off, so that a place set later is shown only when the owner switches it on again.
 * 'unchanged' when the edit changes nothing (no version is stored), null when the post is not the
 * owner's live post.
 */
export async function editOwnPost(
  db: Database,
  postId: string,
  ownerId: string,
  changes: PostEdit,
  now: Date,
): Promise<'edited' | 'unchanged' | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        caption: posts.caption,
        catName: posts.catName,
        altText: posts.altText,
        latitude: posts.latitude,
        longitude: posts.longitude,
        exifData: posts.exifData,
        createdAt: posts.createdAt,
        editedAt: posts.editedAt,
      })
      .from(posts)
      .where(and(eq(posts.id, postId), eq(posts.userId, ownerId), isNull(posts.deletedAt)))
      .for('update');
    if (!current) return null;
    const next: PostText = {
      caption: changes.caption ?? current.caption,
      catName: changes.catName === undefined ? current.catName : changes.catName,
      altText: changes.altText === undefined ? current.altText : changes.altText,
    };
    const textChanged =
      next.caption !== current.caption ||
      next.catName !== current.catName ||
      next.altText !== current.altText;
    const place = changes.location;
    const placeChanged =
      place !== undefined &&
      (place === null
        ? current.latitude !== null
        : place.latitude !== current.latitude || place.longitude !== current.longitude);
    if (!textChanged && !placeChanged) return 'unchanged';
    if (textChanged) {
      const [last] = await tx
        .select({ version: sql<number>`coalesce(max(${postVersions.version}), 0)`.mapWith(Number) })
        .from(postVersions)
        .where(eq(postVersions.postId, postId));
      await tx.insert(postVersions).values({
        postId,
        version: (last?.version ?? 0) + 1,
        caption: current.caption,
        catName: current.catName,
        altText: current.altText,
        createdAt: current.editedAt ?? current.createdAt,
      });
    }
    await tx
      .update(posts)
      .set({
        ...(textChanged ? { ...next, editedAt: now } : {}),
        ...(placeChanged
          ? {
              latitude: place?.latitude ?? null,
              longitude: place?.longitude ?? null,
              exifData: withoutGps(current.exifData),
              ...(place === null ? { showLocation: false } : {}),
            }
          : {}),
      })
      .where(eq(posts.id, postId));
    return 'edited';
  });
}

/** The post's earlier versions, newest first (the current one is the post row itself). */
export async function earlierVersions(db: Executor, postId: string) {
  return db
    .select({
      version: postVersions.version,
      caption: postVersions.caption,
      catName: postVersions.catName,
      altText: postVersions.altText,
      createdAt: postVersions.createdAt,
    })
    .from(postVersions)
    .where(eq(postVersions.postId, postId))
    .orderBy(desc(postVersions.version));
}
