import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../src/db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../build-app.ts';
import { createPost, createUser } from '../../factories.ts';
import { changedTables, fullSnapshot } from './snapshot.ts';

// The authorisation matrix trusts these digests to say that a refusal changed nothing.
describe('fullSnapshot', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is equal while nothing changes, and names each table a write touched', async () => {
    const user = await createUser(t.db);
    const first = await fullSnapshot(t.db);
    expect(changedTables(first, await fullSnapshot(t.db))).toEqual([]);

    // One column of one row.
    await t.db.update(users).set({ altTextReminder: false }).where(eq(users.id, user.id));
    const second = await fullSnapshot(t.db);
    expect(changedTables(first, second)).toEqual(['users']);

    // A new row elsewhere.
    await createPost(t.db, user.id);
    expect(changedTables(second, await fullSnapshot(t.db))).toContain('posts');
  });
});
