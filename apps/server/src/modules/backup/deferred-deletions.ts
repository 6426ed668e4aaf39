import type { Database } from '../../db/client.ts';
import { referencedMediaPrefixes } from '../../media/media.repository.ts';
import type { MediaStorage } from '../../media/storage.ts';
import * as repo from './backup.repository.ts';

const DEFERRING = Symbol('defers deletions during backups');

/**
 * The app's storage, with deletions put off while a backup runs (docs/decisions/020-backups.md). The app
 * deletes a file only after the rows pointing at it are gone (committed), and the backup takes its lease
 * before its snapshot: so a file the snapshot references can be deleted only after the lease exists,
 * and such a deletion is recorded instead of done. The backup carries them out when it ends
 * (runDeferredDeletions); if it dies, the next backup or the next start does.
 */
export function deferDeletionsDuringBackups(storage: MediaStorage, db: Database): MediaStorage {
  if ((storage as { [DEFERRING]?: true })[DEFERRING]) return storage;
  const wrapped: MediaStorage & { [DEFERRING]: true } = {
    [DEFERRING]: true,
    kind: storage.kind,
    put: (key, body, contentType) => storage.put(key, body, contentType),
    putFile: (key, path, contentType) => storage.putFile(key, path, contentType),
    get: (key) => storage.get(key),
    exists: (key) => storage.exists(key),
    listPrefixes: (root) => storage.listPrefixes(root),
    listKeys: (prefix) => storage.listKeys(prefix),
    probe: () => storage.probe(),
    delete: async (key) => {
      if (!(await repo.deferIfBackingUp(db, key, 'key'))) await storage.delete(key);
    },
    deletePrefix: async (prefix) => {
      if (!(await repo.deferIfBackingUp(db, prefix, 'prefix'))) await storage.deletePrefix(prefix);
    },
    ...(storage.close ? { close: () => storage.close!() } : {}),
  };
  return wrapped;
}

/**
 * Carries out the deletions deferred by backups, once no backup holds a lease. A prefix that a row
 * points at again (content-addressed prefixes from before issue 23 could be shared) stays. Returns how
 * many were done.
 */
export async function runDeferredDeletions(db: Database, storage: MediaStorage): Promise<number> {
  await repo.dropExpiredLeases(db);
  const deferred = await repo.deferredDeletionsIfNoLease(db);
  if (deferred.length === 0) return 0;
  const prefixes = deferred.filter((d) => d.kind === 'prefix').map((d) => d.target);
  const inUse = await referencedMediaPrefixes(db, prefixes);
  let done = 0;
  for (const { kind, target } of deferred) {
    if (kind === 'prefix' && !inUse.has(target)) await storage.deletePrefix(target);
    else if (kind === 'key') await storage.delete(target);
    await repo.forgetDeferred(db, target);
    done += 1;
  }
  return done;
}
