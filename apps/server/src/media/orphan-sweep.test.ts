import { utimesSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-app.ts';
import { createPost, createUser } from '../../test/factories.ts';
import { fixture } from '../../test/fixtures/images.ts';
import { users } from '../db/schema/index.ts';
import { storeImageVariants } from './image-pipeline.ts';
import { ORPHAN_GRACE_MS, sweepOrphanMedia } from './orphan-sweep.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

async function prefixes(): Promise<string[]> {
  const found: string[] = [];
  for (const root of ['posts', 'avatars'])
    for await (const e of t.storage.listPrefixes(root)) found.push(e.prefix);
  return found.sort();
}

/** Pretend a prefix was last written long ago (a crash between file write and row insert). */
function age(prefix: string, ms: number) {
  const when = new Date(Date.now() - ms);
  utimesSync(join(t.mediaDir, prefix), when, when);
}

describe('sweepOrphanMedia', () => {
  it('deletes old unreferenced prefixes only, keeping referenced ones and fresh uploads', async () => {
    const user = await createUser(t.db);
    const usedByPost = await storeImageVariants(t.storage, fixture('photo-gps.jpg'), {
      kind: 'posts',
      widths: [64, 800],
    });
    await createPost(t.db, user.id, { mediaKey: usedByPost.prefix });
    const avatar = await storeImageVariants(t.storage, fixture('cat.png'), {
      kind: 'avatars',
      widths: [72, 300],
      square: true,
    });
    await t.db.update(users).set({ profilePicKey: avatar.prefix }).where(eq(users.id, user.id));
    const orphanPost = await storeImageVariants(t.storage, fixture('photo-no-gps.jpg'), {
      kind: 'posts',
      widths: [64],
    });
    const orphanAvatar = await storeImageVariants(t.storage, fixture('photo-no-gps.jpg'), {
      kind: 'avatars',
      widths: [72],
      square: true,
    });
    const inFlight = await storeImageVariants(t.storage, fixture('rotated-6.jpg'), {
      kind: 'posts',
      widths: [64],
    });

    for (const p of [usedByPost.prefix, avatar.prefix, orphanPost.prefix, orphanAvatar.prefix])
      age(p, ORPHAN_GRACE_MS + 60_000);
    age(inFlight.prefix, ORPHAN_GRACE_MS - 60_000);

    const deleted = await sweepOrphanMedia({ db: t.db, storage: t.storage });
    expect(deleted.sort()).toEqual([orphanAvatar.prefix, orphanPost.prefix].sort());
    expect(await prefixes()).toEqual([avatar.prefix, inFlight.prefix, usedByPost.prefix].sort());
    expect(await t.storage.exists(`${usedByPost.prefix}/800.webp`)).toBe(true);

    // Once the grace period has passed, the unclaimed upload goes too.
    const later = await sweepOrphanMedia({
      db: t.db,
      storage: t.storage,
      now: new Date(Date.now() + ORPHAN_GRACE_MS),
    });
    expect(later).toEqual([inFlight.prefix]);
    expect(await sweepOrphanMedia({ db: t.db, storage: t.storage })).toEqual([]);
  });
});
