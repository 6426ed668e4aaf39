/** Writing a new post: its row, and its shares with the author's groups. */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { groupMembers, postGroups, posts } from '../../db/schema/index.ts';

export type NewPost = typeof posts.$inferInsert;

export async function insertPost(db: Executor, values: NewPost): Promise<{ id: string }> {
  const [row] = await db.insert(posts).values(values).returning({ id: posts.id });
  if (!row) throw new Error('insert returned no row');
  return row;
}

/**
 * Shares a new post with those of the given groups its author belongs to; others are left out. The
 * membership is read and referenced in the same statement (post_groups_membership_fk): a removal
 * committed meanwhile makes it fail with that constraint rather than leave a share behind.
 */
export async function shareWithMemberGroups(
  db: Executor,
  postId: string,
  userId: string,
  groupIds: readonly string[],
): Promise<void> {
  if (groupIds.length === 0) return;
  await db.execute(sql`insert into ${postGroups} (post_id, group_id, user_id)
    select ${postId}, gm.group_id, gm.user_id from ${groupMembers} gm
    where gm.user_id = ${userId} and gm.group_id = any(${sql.param([...groupIds])}::uuid[])
    on conflict do nothing`);
}
