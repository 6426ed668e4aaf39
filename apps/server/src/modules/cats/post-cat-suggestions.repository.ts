import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { isUuid } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { rowsOf, toBoolean } from '../../db/raw-results.ts';
import { catSuggestions, posts, users } from '../../db/schema/index.ts';
import { notBlockedWith } from '../visibility/visibility.ts';

/**
 * SQL of 'This is Luna' (issue 26): suggestions of which cat someone else's picture shows. Who may see
 * the post is the caller's check (cats.repository.ts postSeenBy); suggesters the viewer shares a block
 * with are left out here, as everywhere (a block leaves no trace).
 */

export type SuggestionStatus = 'open' | 'accepted' | 'declined';

export interface SuggestionRow {
  id: string;
  postId: string;
  catId: string;
  status: SuggestionStatus;
  createdAt: Date;
  suggester: { id: string; username: string; profilePicKey: string | null };
}

export async function insertSuggestion(
  db: Executor,
  values: { postId: string; catId: string; suggestedBy: string },
): Promise<{ id: string; createdAt: Date }> {
  const [row] = await db
    .insert(catSuggestions)
    .values(values)
    .returning({ id: catSuggestions.id, createdAt: catSuggestions.createdAt });
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** The suggester's open suggestion on the post, if any (one at a time: cat_suggestions_open_idx). */
export async function hasOpenSuggestion(db: Executor, postId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: catSuggestions.id })
    .from(catSuggestions)
    .where(
      and(
        eq(catSuggestions.postId, postId),
        eq(catSuggestions.suggestedBy, userId),
        eq(catSuggestions.status, 'open'),
      ),
    );
  return row !== undefined;
}

/**
 * Whether the post's link to its cat is kept from the viewer (a sighting near a household cat's home,
 * migration 0018): then they must not learn it from a refusal either.
 */
export async function postLinkKeptFrom(db: Executor, postId: string, viewerId: string): Promise<boolean> {
  const [row] = rowsOf(
    await db.execute(sql`select sighting_kept_from(p.cat_id, p.user_id, p.latitude, p.longitude, p.show_location, ${viewerId})
      as kept from ${posts} p where p.id = ${postId}`),
  );
  return toBoolean(row?.kept);
}

const suggestionColumns = {
  id: catSuggestions.id,
  postId: catSuggestions.postId,
  catId: catSuggestions.catId,
  status: catSuggestions.status,
  createdAt: catSuggestions.createdAt,
  suggester: { id: users.id, username: users.username, profilePicKey: users.profilePicKey },
};

/** The post's open suggestions by people the viewer shares no block with, oldest first. */
export async function openSuggestionsFor(
  db: Executor,
  postId: string,
  viewerId: string,
): Promise<SuggestionRow[]> {
  const rows = await db
    .select(suggestionColumns)
    .from(catSuggestions)
    .innerJoin(users, eq(users.id, catSuggestions.suggestedBy))
    .where(
      and(
        eq(catSuggestions.postId, postId),
        eq(catSuggestions.status, 'open'),
        notBlockedWith(viewerId, catSuggestions.suggestedBy),
      ),
    )
    .orderBy(asc(catSuggestions.createdAt), asc(catSuggestions.id));
  return rows as SuggestionRow[];
}

/**
 * One suggestion on this post, by someone the viewer shares no block with, locked for its answer;
 * null when unknown, malformed, on another post or behind a block.
 */
export async function findSuggestion(
  db: Executor,
  suggestionId: string,
  postId: string,
  viewerId: string,
): Promise<SuggestionRow | null> {
  if (!isUuid(suggestionId)) return null;
  const [row] = await db
    .select(suggestionColumns)
    .from(catSuggestions)
    .innerJoin(users, eq(users.id, catSuggestions.suggestedBy))
    .where(
      and(
        eq(catSuggestions.id, suggestionId.toLowerCase()),
        eq(catSuggestions.postId, postId),
        notBlockedWith(viewerId, catSuggestions.suggestedBy),
      ),
    )
    .for('update', { of: catSuggestions });
  return (row as SuggestionRow | undefined) ?? null;
}

/** Every open suggestion on the post, whoever made it: a link answers those of its cat. */
export async function openSuggestionsOfPost(
  db: Executor,
  postId: string,
): Promise<{ id: string; catId: string }[]> {
  return db
    .select({ id: catSuggestions.id, catId: catSuggestions.catId })
    .from(catSuggestions)
    .where(and(eq(catSuggestions.postId, postId), eq(catSuggestions.status, 'open')))
    .orderBy(asc(catSuggestions.createdAt), asc(catSuggestions.id));
}

/**
 * Answers open suggestions (accepted ones tell their suggesters: the trigger of migration 0020). An
 * answered one stays as it was.
 */
export async function answerSuggestions(
  db: Executor,
  ids: readonly string[],
  status: Exclude<SuggestionStatus, 'open'>,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(catSuggestions)
    .set({ status, answeredAt: sql`now()` })
    .where(and(inArray(catSuggestions.id, [...ids]), eq(catSuggestions.status, 'open')));
}
