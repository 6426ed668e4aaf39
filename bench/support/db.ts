/** Rows of a drizzle `execute` result on either driver (node-postgres answers {rows}, PGlite too). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
