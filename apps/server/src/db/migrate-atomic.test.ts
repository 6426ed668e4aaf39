import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-app.ts';
import { createUser } from '../../test/factories.ts';
import { rowsOf } from './raw-results.ts';
import { migrationsFolder } from './client.ts';

/**
 * Upgrades (issue 29, docs/operations.md 'Upgrades'): the server migrates at start, and a failed
 * migration must leave the old schema intact. drizzle's migrator runs every pending migration in one
 * transaction (pg-core dialect.migrate); this proves it holds on both databases, PGlite's thread
 * included: two pending migrations, the second failing half way, leave no trace of either.
 */
describe('a failed migration leaves the old schema intact', () => {
  let t: TestApp;
  let folder: string;

  beforeAll(async () => {
    t = await buildTestApp();
    folder = mkdtempSync(join(tmpdir(), 'cats-migrations-'));
    cpSync(migrationsFolder(), folder, { recursive: true });
    const journalPath = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
      entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
    };
    const last = journal.entries.at(-1)!;
    const add = (tag: string, statements: string[]) => {
      journal.entries.push({
        idx: journal.entries.length,
        version: last.version,
        when: last.when + journal.entries.length,
        tag,
        breakpoints: true,
      });
      writeFileSync(join(folder, `${tag}.sql`), statements.join('\n--> statement-breakpoint\n'));
    };
    add('9998_good', ['CREATE TABLE "upgrade_probe" ("id" integer PRIMARY KEY);']);
    add('9999_broken', [
      'ALTER TABLE "users" ADD COLUMN "upgrade_probe" integer;',
      'UPDATE "users" SET "upgrade_probe" = 1;',
      // Fails: a CHECK the existing rows break, as a real migration's mistake would.
      'ALTER TABLE "users" ADD CONSTRAINT "upgrade_probe_never" CHECK ("upgrade_probe" = 2);',
    ]);
    writeFileSync(journalPath, JSON.stringify(journal, null, 2));
  });
  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const exists = async (query: string) => rowsOf(await t.db.execute(sql.raw(query))).length > 0;

  it(`rolls back every pending migration together (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    await createUser(t.db);
    const applied = async () =>
      rowsOf(await t.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]!.n;
    const before = await applied();

    await expect(t.database.migrate(folder)).rejects.toThrow(/upgrade_probe_never|check constraint/);

    expect(await applied()).toBe(before);
    expect(await exists(`select 1 from pg_tables where tablename = 'upgrade_probe'`)).toBe(false);
    expect(
      await exists(
        `select 1 from information_schema.columns where table_name = 'users' and column_name = 'upgrade_probe'`,
      ),
    ).toBe(false);
    // The database goes on working on the old schema (the server would refuse to start, and the
    // previous version starts on it as before).
    const user = await createUser(t.db);
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    // And the committed migrations alone still apply cleanly (nothing to do).
    await t.database.migrate();
    expect(await applied()).toBe(before);
  });
});
