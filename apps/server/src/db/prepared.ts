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
