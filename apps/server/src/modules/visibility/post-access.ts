import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { hiddenPosts, posts } from '../../db/schema/index.ts';
import { notBlockedWith, postShownTo } from './visibility.ts';

/**
 * A post as one viewer may act on it (like, comment, hide, edit, trash): whether they may see it, and
 * what the owner's own actions need. Absent when it is trashed or kept from them by moderation.
 */
export interface PostAccess {
  id: string;
  userId: string;
  latitude: number | null;
  longitude: number | null;
  /** A moderator hid its location (issue 27): the owner cannot show it until that is restored. */
  locationLocked: boolean;
  /** The viewer and the author share a block (either way). */
  blocked: boolean;
  hiddenByViewer: boolean;
  /** Whether the viewer may see it: neither hidden nor blocked. */
  visible: boolean;
}

export async function findPostAccess(
  ex: Executor,
  postId: string,
  viewerId: string,
): Promise<PostAccess | null> {
  const [row] = await ex
    .select({
      id: posts.id,
      userId: posts.userId,
      latitude: posts.latitude,
      longitude: posts.longitude,
      locationLocked: posts.locationLocked,
      blocked: sql<boolean>`not ${notBlockedWith(viewerId, posts.userId)}`,
      hiddenByViewer: sql<boolean>`exists (select 1 from ${hiddenPosts} where ${hiddenPosts.userId} = ${viewerId} and ${hiddenPosts.postId} = ${posts.id})`,
    })
    .from(posts)
    // A trashed post is not there for anyone, its owner included (it is restored from the trash only);
    // nor is one moderation keeps from the viewer (issue 27): its likers, comments, hiding all 404.
    .where(and(eq(posts.id, postId), isNull(posts.deletedAt), postShownTo(viewerId)));
  return row ? { ...row, visible: !row.blocked && !row.hiddenByViewer } : null;
}
