import { inArray } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { posts, users } from '../db/schema/index.ts';

/**
 * Of the given storage prefixes, those a post or a profile picture still points at. Every upload gets a
 * random prefix of its own now, but prefixes were content-addressed before issue 23 (two posts of the
 * same image shared one), so a prefix is deleted only when unreferenced.
 */
export async function referencedMediaPrefixes(
  db: Executor,
  prefixes: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < prefixes.length; i += 500) {
    const batch = prefixes.slice(i, i + 500);
    const [postRows, userRows] = [
      await db.selectDistinct({ key: posts.mediaKey }).from(posts).where(inArray(posts.mediaKey, batch)),
      await db
        .selectDistinct({ key: users.profilePicKey })
        .from(users)
        .where(inArray(users.profilePicKey, batch)),
    ];
    for (const row of [...postRows, ...userRows]) if (row.key) found.add(row.key);
  }
  return found;
}

export async function isMediaPrefixReferenced(db: Executor, prefix: string): Promise<boolean> {
  return (await referencedMediaPrefixes(db, [prefix])).has(prefix);
}
