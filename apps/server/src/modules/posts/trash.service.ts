import {
  TRASH_DAYS,
  TRASH_LIST_MAX,
  TRASH_MESSAGES,
  isUuid,
  type DeletePostResponse,
  type RestorePostResponse,
  type TrashResponse,
} from '@cats/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { forbidden, notFound } from '../../lib/http-errors.ts';
import { referencedMediaPrefixes } from '../../media/media.repository.ts';
import type { MediaStorage } from '../../media/storage.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { findPostAccess } from '../visibility/post-access.ts';
import { getPostView, toPostView, type PostViewOptions } from './post-view.ts';
import * as repo from './post-trash.repository.ts';
import { selectVisiblePosts } from './posts.repository.ts';
import { DAY_MS } from '../../lib/durations.ts';

const TRASH_MS = TRASH_DAYS * DAY_MS;
/** Rows one purge statement deletes: a long trash goes in several short transactions. */
const PURGE_BATCH = 200;

export interface TrashDeps extends PostViewOptions {
  db: Database;
}

const purgeAt = (deletedAt: Date) => new Date(deletedAt.getTime() + TRASH_MS).toISOString();

/** Malformed ids are answered like unknown ones (issue 5 point 6). */
function requirePostId(id: string, message: string): string {
  if (!isUuid(id)) throw notFound(message);
  return id.toLowerCase();
}

/**
 * The owner moves a post to their trash: from now on it is in no listing, map, group or like/comment
 * route, for anyone. Others who can see the post are told it is not theirs; for those who cannot (blocked,
 * hidden, unknown, already trashed) it does not exist.
 */
export async function deletePost(
  deps: TrashDeps,
  viewer: AuthContext,
  rawPostId: string,
  now = new Date(),
): Promise<DeletePostResponse> {
  const postId = requirePostId(rawPostId, TRASH_MESSAGES.postNotFound);
  const trashed = await repo.trashPost(deps.db, postId, viewer.userId, now);
  if (trashed) {
    return {
      message: TRASH_MESSAGES.moved,
      _id: trashed.id,
      deletedAt: trashed.deletedAt.toISOString(),
      purgeAt: purgeAt(trashed.deletedAt),
    };
  }
  const post = await findPostAccess(deps.db, postId, viewer.userId);
  if (!post?.visible) throw notFound(TRASH_MESSAGES.postNotFound);
  throw forbidden(TRASH_MESSAGES.notOwner);
}

/** The caller's trash, newest deletion first, each post as its owner sees it (exact location included). */
export async function listTrash(deps: TrashDeps, viewer: AuthContext): Promise<TrashResponse> {
  const entries = await repo.trashedPostIds(deps.db, viewer.userId, TRASH_LIST_MAX);
  if (entries.length === 0) return { posts: [] };
  const rows = await selectVisiblePosts(
    deps.db,
    viewer.userId,
    { postIds: entries.map((e) => e.id), trashed: true },
    { limit: entries.length },
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    posts: entries.flatMap(({ id, deletedAt }) => {
      const row = byId.get(id);
      // Restored or purged between the two reads: no longer in the trash.
      if (!row) return [];
      return [
        {
          ...toPostView(viewer, row, deps),
          deletedAt: deletedAt.toISOString(),
          purgeAt: purgeAt(deletedAt),
        },
      ];
    }),
  };
}

/** Puts a post of the caller's trash back where it was: same id, likes, comments and group shares. */
export async function restorePost(
  deps: TrashDeps,
  viewer: AuthContext,
  rawPostId: string,
): Promise<RestorePostResponse> {
  const postId = requirePostId(rawPostId, TRASH_MESSAGES.notInTrash);
  if (!(await repo.restorePost(deps.db, postId, viewer.userId))) throw notFound(TRASH_MESSAGES.notInTrash);
  const post = await getPostView(deps.db, viewer, postId, deps);
  // Purged or trashed again by a concurrent request of the same owner.
  if (!post) throw notFound(TRASH_MESSAGES.notInTrash);
  return { message: TRASH_MESSAGES.restored, post };
}

export interface SweepDeps {
  db: Database;
  storage: MediaStorage;
  log?: FastifyBaseLogger | undefined;
}

/**
 * Purges posts trashed more than TRASH_DAYS before `now`: the rows (likes, comments, group shares
 * cascade), then their files once no post (a trashed one included) or profile picture points at them.
 * A file that fails to go is left for the orphan sweep (media/orphan-sweep.ts). Returns the number of
 * posts purged.
 */
export async function sweepTrash(deps: SweepDeps, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - TRASH_MS);
  let purged = 0;
  for (;;) {
    const prefixes = await repo.purgeTrashedBefore(deps.db, cutoff, PURGE_BATCH);
    purged += prefixes.length;
    const unique = [...new Set(prefixes)];
    const inUse = await referencedMediaPrefixes(deps.db, unique);
    for (const prefix of unique.filter((p) => !inUse.has(p))) {
      try {
        await deps.storage.deletePrefix(prefix);
      } catch (err) {
        deps.log?.warn({ err, prefix }, 'trash sweep: media not deleted; the orphan sweep will retry');
      }
    }
    if (prefixes.length < PURGE_BATCH) break;
  }
  if (purged > 0) deps.log?.info({ purged }, 'trash sweep: purged posts deleted over 30 days ago');
  return purged;
}
