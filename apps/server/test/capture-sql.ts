import { Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from '../src/db/client.ts';

/** The SQL one repository call sends, as captureSql records it. */
export interface CapturedSql {
  /** The statement as sent, with $1, $2… */
  text: string;
  /** The values bound to them, placeholders resolved. */
  params: unknown[];
  /** The statement with its values written in (EXPLAIN needs them bound). */
  inlined: string;
}

/** A value as a SQL literal: numbers and booleans as they are, null as null, the rest quoted. */
export const sqlLiteral = (v: unknown) =>
  v === null || v === undefined
    ? 'null'
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : `'${String(v).replace(/'/g, "''")}'`;

/**
 * Runs a repository call against a stand-in database that records the last statement it is given,
 * prepared (preparedSql) or not (db.execute), instead of running it: for tests and benches that
 * EXPLAIN a statement as the app sends it.
 */
export async function captureSql(run: (db: Database) => Promise<unknown>): Promise<CapturedSql> {
  let text = '';
  let params: unknown[] = [];
  const recorder = {
    execute: async (query: SQL) => {
      ({ sql: text, params } = new PgDialect().sqlToQuery(query));
      return { rows: [] };
    },
    _: {
      session: {
        prepareQuery: (compiled: { sql: string; params: unknown[] }) => ({
          execute: async (values: Record<string, unknown>) => {
            text = compiled.sql;
            params = compiled.params.map((p) => (p instanceof Placeholder ? values[p.name] : p));
            return { rows: [] };
          },
        }),
      },
    },
  } as unknown as Database;
  await run(recorder);
  const inlined = text.replace(/\$(\d+)/g, (_m, n: string) => sqlLiteral(params[Number(n) - 1]));
  return { text, params, inlined };
}
