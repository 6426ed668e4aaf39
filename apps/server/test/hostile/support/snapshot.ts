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

/** Every row of every table, as sorted JSON lines per table: equal snapshots mean nothing changed. */
export async function fullSnapshot(db: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await appTables(db)) {
    const rows = rowsOf<Record<string, unknown>>(await db.execute(sql.raw(`select * from "${table}"`)));
    out[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
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
  before: Record<string, string[] | number>,
  after: Record<string, string[] | number>,
): string[] {
  return Object.keys({ ...before, ...after }).filter(
    (t) => JSON.stringify(before[t]) !== JSON.stringify(after[t]),
  );
}
