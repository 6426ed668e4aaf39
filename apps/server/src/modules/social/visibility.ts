import { sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import { blocks, groupMembers, hiddenPosts, postGroups, posts } from '../../db/schema/index.ts';

/**
 * Who may see whom (issue 5 point 3): a block works both ways, so neither the blocker nor the blocked
 * user sees the other's posts, comments or profile. `userColumn` is the other user's id column;
 * `viewerId` may be a placeholder of a prepared statement.
 */
export function notBlockedWith(viewerId: string | Placeholder, userColumn: AnyColumn | SQL): SQL {
  return sql`not exists (select 1 from ${blocks} where (${blocks.blockerId} = ${viewerId} and ${blocks.blockedId} = ${userColumn}) or (${blocks.blockerId} = ${userColumn} and ${blocks.blockedId} = ${viewerId}))`;
}

/**
 * The users the viewer shares a block with, either way, as a sub-select of their ids: for NOT IN. Each
 * arm reads one index (blocks' primary key, blocks_blocked_idx); PostgreSQL hashes the few ids once per
 * statement, so testing every liker or comment of a page against them is a hash probe.
 */
export const usersBlockedWith = (viewer: unknown): SQL =>
  sql`select b.blocked_id from ${blocks} b where b.blocker_id = ${viewer}
      union all select b.blocker_id from ${blocks} b where b.blocked_id = ${viewer}`;

/**
 * A live post (not in its owner's trash) the viewer neither hid nor shares a block with its author; own
 * live posts always qualify.
 */
export function postVisibleTo(viewerId: string | Placeholder): SQL {
  return sql`(${posts.deletedAt} is null and ${notBlockedWith(viewerId, posts.userId)} and not exists (select 1 from ${hiddenPosts} where ${hiddenPosts.userId} = ${viewerId} and ${hiddenPosts.postId} = ${posts.id}))`;
}

/**
 * The viewer belongs to a group the post is shared with, so they may see its exact spot when its
 * location is on (location-rule.ts). Two primary-key lookups: post_groups by post, group_members by
 * (group, user).
 */
export function sharedWithMember(viewerId: unknown, postIdColumn: AnyColumn | SQL): SQL {
  return sql`exists (select 1 from ${postGroups} spg join ${groupMembers} sgm on sgm.group_id = spg.group_id
    where spg.post_id = ${postIdColumn} and sgm.user_id = ${viewerId})`;
}
