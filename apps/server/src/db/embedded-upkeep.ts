/**
 * What PostgreSQL's autovacuum does, for the embedded database, which has none. PGlite runs PostgreSQL
 * in single-user mode: without it, rows deleted or replaced (a like taken back, a deleted post) were
 * never reclaimed, the planner kept the statistics of whenever the tables were last analysed (never,
 * on a server started with `npm start`), and the visibility map was never set, so the feed's
 * index-only scan still read every row (docs/performance.md, "Page 200 from the index alone").
 *
 * The thresholds are autovacuum's defaults: a table is vacuumed once more than 50 rows plus 20 % of it
 * are dead, or 1,000 rows plus 20 % of it were inserted since its last vacuum; it is analysed once 50
 * rows plus 10 % of it changed. PGlite does not keep these counters across restarts, so what counts is
 * the activity since the server started (the statistics themselves are kept). One table per statement,
 * so requests get their turn in between: the whole 100,000-post benchmark dataset takes ~0.5 s.
 */
import type { PgliteClient } from './pglite-thread.ts';

export interface UpkeepResult {
  vacuumed: string[];
  analyzed: string[];
}

interface TableState {
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

const TABLES_DUE = `
  select s.relname as "table",
    s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
      or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0) as "vacuum",
    s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as "analyze"
  from pg_stat_user_tables s
  join pg_class c on c.oid = s.relid
  order by s.relname`;

export async function upkeep(client: Pick<PgliteClient, 'query' | 'exec'>): Promise<UpkeepResult> {
  // A backend reports its counters at most once a second; the read below must see the latest writes.
  await client.query('select pg_stat_force_next_flush()');
  const { rows } = await client.query<TableState>(TABLES_DUE);
  const result: UpkeepResult = { vacuumed: [], analyzed: [] };
  for (const { table, vacuum, analyze } of rows) {
    if (!vacuum && !analyze) continue;
    const name = `"${table.replaceAll('"', '""')}"`;
    // Outside a transaction (VACUUM refuses one), through PGlite's simple query protocol.
    await client.exec(vacuum ? `vacuum (analyze) ${name}` : `analyze ${name}`);
    if (vacuum) result.vacuumed.push(table);
    result.analyzed.push(table);
  }
  return result;
}
