import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../../../src/db/client.ts';

let tableNames: Promise<string[]> | undefined;

/** Every table of the application schema (migrations' bookkeeping lives in another schema). */
export function appTables(db: Database): Promise<string[]> {
  tableNames ??= db
    .execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    )
    .then((res) => rowsOf<{ table_name: string }>(res).map((r) => r.table_name));
  return tableNames;
}

/** node-postgres answers {rows}, PGlite answers {rows} too, but drizzle may hand back an array. */
function rowsOf<T>(res: unknown): T[] {
  if (Array.isArray(res)) return res as T[];
  return ((res as { rows?: T[] }).rows ?? []) as T[];
}

/** Row count per table, in one round trip. */
export async function rowCounts(db: Database): Promise<Record<string, number>> {
  const tables = await appTables(db);
  const query = tables.map((t) => `select '${t}' as t, count(*)::int as n from "${t}"`).join(' union all ');
  const rows = rowsOf<{ t: string; n: number }>(await db.execute(sql.raw(query)));
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}

/**
 * Every table's rows, as one digest per table (its row count and the md5 of its rows' text, sorted),
 * computed by the database in one round trip: equal snapshots mean nothing changed. Reading every row
 * into the test instead cost the authorisation matrix most of its time (issue 52).
 */
export async function fullSnapshot(db: Database): Promise<Record<string, string>> {
  const tables = await appTables(db);
  const query = tables
    .map(
      (t) =>
        `select '${t}' as t, count(*)::int || ':' || md5(coalesce(string_agg(x::text, E'\\n' order by x::text), '')) as d from "${t}" x`,
    )
    .join(' union all ');
  const rows = rowsOf<{ t: string; d: string }>(await db.execute(sql.raw(query)));
  return Object.fromEntries(rows.map((r) => [r.t, String(r.d)]));
}

/** Every file under the media root, relative paths, sorted. */
export function mediaFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

/** Tables that differ between two snapshots (count or content). */
export function changedTables(
  before: Record<string, string | string[] | number>,
  after: Record<string, string | string[] | number>,
): string[] {
  return Object.keys({ ...before, ...after }).filter(
    (t) => JSON.stringify(before[t]) !== JSON.stringify(after[t]),
  );
}
