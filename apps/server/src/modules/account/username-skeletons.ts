import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { usernameSkeleton } from '../../lib/confusables.ts';
import { isUniqueViolation } from '../groups/groups.repository.ts';
import * as repo from './account.repository.ts';

/**
 * Gives accounts from before migration 0005 their look-alike key (the skeleton needs Unicode's
 * confusables data, which SQL does not have, so the migration only adds the column). Oldest first:
 * when two existing names look alike, the older account gets the key and the newer one keeps its name
 * with a null key; the older key still refuses any new look-alike. Runs at start-up after the
 * migrations; once done it only meets those few null keys again.
 */
export async function backfillUsernameSkeletons(db: Database, log?: FastifyBaseLogger): Promise<void> {
  const pending = await repo.usersWithoutSkeleton(db);
  let kept = 0;
  for (const user of pending) {
    try {
      if (!(await repo.setSkeletonIfFree(db, user.id, usernameSkeleton(user.username)))) kept += 1;
    } catch (err) {
      // Another instance starting at the same moment took the key first: same outcome.
      if (!isUniqueViolation(err)) throw err;
      kept += 1;
    }
  }
  if (kept > 0)
    log?.info({ accounts: kept }, 'usernames that look like an older account kept a null skeleton');
}
