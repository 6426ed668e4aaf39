import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { posts, reports, users } from '../db/schema/index.ts';

/**
 * Of the given storage prefixes, those a post, a profile picture or a report still points at. Every
 * upload gets a random prefix of its own now, but prefixes were content-addressed before issue 23 (two
 * posts of the same image shared one), so a prefix is deleted only when unreferenced. A report keeps the
 * picture it was about (issue 27: moderators judge, and the author appeals, what was reported, even once
 * the post is deleted and purged); the report goes with its reporter's or the author's account.
 */
export async function referencedMediaPrefixes(
  db: Executor,
  prefixes: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < prefixes.length; i += 500) {
    const batch = prefixes.slice(i, i + 500);
    const reportKey = sql<string>`${reports.snapshot} ->> 'mediaKey'`;
    const [postRows, userRows, reportRows] = [
      await db.selectDistinct({ key: posts.mediaKey }).from(posts).where(inArray(posts.mediaKey, batch)),
      await db
        .selectDistinct({ key: users.profilePicKey })
        .from(users)
        .where(inArray(users.profilePicKey, batch)),
      // Reports are few next to posts, and this runs in the daily sweeps only: no index on the key.
      await db.selectDistinct({ key: reportKey }).from(reports).where(inArray(reportKey, batch)),
    ];
    for (const row of [...postRows, ...userRows, ...reportRows]) if (row.key) found.add(row.key);
  }
  return found;
}

export async function isMediaPrefixReferenced(db: Executor, prefix: string): Promise<boolean> {
  return (await referencedMediaPrefixes(db, [prefix])).has(prefix);
}
