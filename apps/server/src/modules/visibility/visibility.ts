import { sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import {
  blocks,
  comments,
  groupMembers,
  hiddenPosts,
  postGroups,
  posts,
  reports,
} from '../../db/schema/index.ts';

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
 * Moderation (issue 27) as one viewer sees a post or a comment: one that is neither moderated nor by a
 * suspended author is shown to everyone; one 'pending_review' or by a suspended author is shown to its
 * author alone; one 'removed' to nobody, its author included (their data export still holds it). Only
 * a rare row fails the first arm, so on the feed's index scans this is a filter, not another index.
 *
 * `alias` is the table's name or alias in the statement ('p' in raw SQL); without it, drizzle's own
 * columns of posts / comments.
 */
export function postShownTo(viewer: unknown, alias?: string): SQL {
  return moderationShownTo(
    viewer,
    alias
      ? {
          moderation: sql.raw(`${alias}.moderation`),
          suspended: sql.raw(`${alias}.author_suspended`),
          author: sql.raw(`${alias}.user_id`),
        }
      : {
          moderation: sql`${posts.moderation}`,
          suspended: sql`${posts.authorSuspended}`,
          author: sql`${posts.userId}`,
        },
  );
}

/** The same rule for a comment (its author is comments.user_id). */
export function commentShownTo(viewer: unknown, alias?: string): SQL {
  return moderationShownTo(
    viewer,
    alias
      ? {
          moderation: sql.raw(`${alias}.moderation`),
          suspended: sql.raw(`${alias}.author_suspended`),
          author: sql.raw(`${alias}.user_id`),
        }
      : {
          moderation: sql`${comments.moderation}`,
          suspended: sql`${comments.authorSuspended}`,
          author: sql`${comments.userId}`,
        },
  );
}

/** Shown to everyone: neither moderated nor by a suspended author (the explore map's public layer). */
export function postShownToAll(alias?: string): SQL {
  return alias
    ? sql.raw(`(${alias}.moderation is null and not ${alias}.author_suspended)`)
    : sql`(${posts.moderation} is null and not ${posts.authorSuspended})`;
}

function moderationShownTo(viewer: unknown, c: { moderation: SQL; suspended: SQL; author: SQL }): SQL {
  return sql`((${c.moderation} is null and not ${c.suspended}) or (${c.author} = ${viewer} and ${c.moderation} is distinct from 'removed'))`;
}

/**
 * A live post (not in its owner's trash) the viewer neither hid nor shares a block with its author, and
 * that moderation leaves shown to them (postShownTo); own live posts qualify unless removed.
 */
export function postVisibleTo(viewerId: string | Placeholder): SQL {
  return sql`(${posts.deletedAt} is null and ${notBlockedWith(viewerId, posts.userId)} and not exists (select 1 from ${hiddenPosts} where ${hiddenPosts.userId} = ${viewerId} and ${hiddenPosts.postId} = ${posts.id}) and ${postShownTo(viewerId)})`;
}

/**
 * The viewer belongs to a group the post is shared with, so they may see its exact spot when its
 * location is on (location-rule.ts). Two primary-key lookups: post_groups by post, group_members by
 * (group, user); only for a viewer in some group, asked once per statement (an InitPlan), so a list of
 * rows costs the rest nothing. On a small post_groups each lookup is a scan started anew, and on PGlite
 * each start asks the file's size of the file system (docs/performance.md, "PGlite's planner costs").
 */
export function sharedWithMember(viewerId: unknown, postIdColumn: AnyColumn | SQL): SQL {
  return sql`case when exists (select 1 from ${groupMembers} vgm where vgm.user_id = ${viewerId})
    then exists (select 1 from ${postGroups} spg join ${groupMembers} sgm on sgm.group_id = spg.group_id
      where spg.post_id = ${postIdColumn} and sgm.user_id = ${viewerId})
    else false end`;
}

/**
 * Comments the viewer reported, as a sub-select of their ids for NOT IN: the reporter stops seeing a
 * reported comment at once. One range of reports_reporter_target_idx per statement, hashed once, like
 * usersBlockedWith, so each comment of a page is a hash probe.
 */
export const commentsReportedBy = (viewer: unknown): SQL =>
  sql`select rr.target_id from ${reports} rr where rr.reporter_id = ${viewer} and rr.target_type = 'comment'`;
