import type { Executor } from '../db/client.ts';
import { referencedMediaPrefixes } from './media.repository.ts';
import { MEDIA_ROOTS, type MediaStorage } from './storage.ts';

/** Uploads write their files before their row; this long after the last write, a lone prefix is an orphan. */
export const ORPHAN_GRACE_MS = 10 * 60 * 1000;

export interface OrphanSweepOptions {
  db: Executor;
  storage: MediaStorage;
  graceMs?: number;
  now?: Date;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void } | undefined;
}

/**
 * Deletes media prefixes under posts/, avatars/ and reports/ that no post, profile picture or report
 * references and
 * that were last written more than the grace period ago (so in-flight uploads on this or another
 * instance are safe). Run at start-up: orphans come from crashes between file write and row insert,
 * and from failures whose clean-up also failed. Returns the deleted prefixes.
 */
export async function sweepOrphanMedia(opts: OrphanSweepOptions): Promise<string[]> {
  const cutoff = (opts.now ?? new Date()).getTime() - (opts.graceMs ?? ORPHAN_GRACE_MS);
  const deleted: string[] = [];
  for (const root of MEDIA_ROOTS) {
    const candidates: string[] = [];
    for await (const { prefix, modifiedAt } of opts.storage.listPrefixes(root)) {
      if (modifiedAt.getTime() < cutoff) candidates.push(prefix);
    }
    if (candidates.length === 0) continue;
    const referenced = await referencedMediaPrefixes(opts.db, candidates);
    for (const prefix of candidates) {
      if (referenced.has(prefix)) continue;
      try {
        await opts.storage.deletePrefix(prefix);
        deleted.push(prefix);
      } catch (err) {
        opts.log?.warn({ err, prefix }, 'orphan sweep: could not delete');
      }
    }
  }
  if (deleted.length > 0)
    opts.log?.info({ count: deleted.length }, 'orphan sweep: deleted unreferenced media');
  return deleted;
}
