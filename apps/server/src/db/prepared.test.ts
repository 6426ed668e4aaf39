import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../test/build-app.ts';
import { createPost, createUser } from '../../test/factories.ts';
import { preparedSql } from './prepared.ts';
import { rowsOf } from './raw-results.ts';

/** Raw statements prepared once per database, on whichever driver the tests run (PGlite or PostgreSQL). */
describe('preparedSql', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const postsByAuthor = preparedSql(
    'test_posts_by_author',
    sql`select count(*)::int as n, ${sql.placeholder('label')}::text as label
      from posts where user_id = ${sql.placeholder('authorId')}`,
  );

  it('binds each run its own values, and a repeated placeholder to one value', async () => {
    const one = await createUser(t.db);
    const two = await createUser(t.db);
    await createPost(t.db, one.id);
    await createPost(t.db, one.id);
    await createPost(t.db, two.id);

    const [first] = rowsOf(await postsByAuthor(t.db).execute({ authorId: one.id, label: 'one' }));
    const [second] = rowsOf(await postsByAuthor(t.db).execute({ authorId: two.id, label: 'two' }));
    expect(first).toEqual({ n: 2, label: 'one' });
    expect(second).toEqual({ n: 1, label: 'two' });
  });

  it('builds the statement once per database and once per transaction', async () => {
    expect(postsByAuthor(t.db)).toBe(postsByAuthor(t.db));
    await t.db.transaction(async (tx) => {
      const inTransaction = postsByAuthor(tx);
      expect(inTransaction).not.toBe(postsByAuthor(t.db));
      const author = await createUser(tx);
      await createPost(tx, author.id);
      // Runs on the transaction's connection: sees the transaction's own uncommitted post.
      expect(rowsOf(await inTransaction.execute({ authorId: author.id, label: 'tx' }))).toEqual([
        { n: 1, label: 'tx' },
      ]);
    });
  });

  it('runs many at once on one database without mixing up their values', async () => {
    const authors = await Promise.all(Array.from({ length: 20 }, () => createUser(t.db)));
    await Promise.all(
      authors.map((a, i) => Promise.all(Array.from({ length: i % 3 }, () => createPost(t.db, a.id)))),
    );
    const results = await Promise.all(
      authors.map(
        async (a, i) => rowsOf(await postsByAuthor(t.db).execute({ authorId: a.id, label: `a${i}` }))[0],
      ),
    );
    expect(results).toEqual(authors.map((_, i) => ({ n: i % 3, label: `a${i}` })));
  });
});
