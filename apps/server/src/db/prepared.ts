import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';

/**
 * A prepared statement (or a map of them) built once for each database (or transaction) it runs on,
 * for queries that run on every request: drizzle then neither rebuilds the SQL nor, on PostgreSQL, has
 * it planned again.
 */
export function preparedPerDatabase<Db extends object, Statement>(
  prepare: (db: Db) => Statement,
): (db: Db) => Statement {
  const byDatabase = new WeakMap<Db, Statement>();
  return (db) => {
    let statement = byDatabase.get(db);
    if (!statement) {
      statement = prepare(db);
      byDatabase.set(db, statement);
    }
    return statement;
  };
}

/** A raw statement prepared once: its SQL text is built once and, on PostgreSQL, planned once. */
export interface PreparedSql {
  execute(values: Record<string, unknown>): Promise<unknown>;
}

const dialect = new PgDialect();

/**
 * Prepares raw SQL (a statement the query builder cannot express, such as a CTE that inserts) under
 * `name`, with its values as `sql.placeholder`s: planned once per connection instead of on every run.
 * drizzle's `db.execute` sends raw SQL as an unnamed statement, which PostgreSQL parses and plans each
 * time (0.25 of the 0.6 ms a comment's insert costs it; docs/performance.md). The result has the
 * driver's own shape, as `db.execute`'s does: read it with `rowsOf`.
 */
export function preparedSql(name: string, query: SQL): (db: Executor) => PreparedSql {
  const compiled = dialect.sqlToQuery(query);
  return preparedPerDatabase((db: Executor) => db._.session.prepareQuery(compiled, undefined, name, false));
}
