/** Reading the results of raw SQL (`db.execute(sql…)`), which the two drivers shape differently. */

export type RawRow = Record<string, unknown>;

/** The rows of a raw query, whether the driver answers `{ rows }` or an array of rows. */
export const rowsOf = (result: unknown): RawRow[] =>
  Array.isArray(result) ? (result as RawRow[]) : ((result as { rows?: RawRow[] }).rows ?? []);

/**
 * The ids of a `string_agg(id::text, ',')` column ('' for none): cheaper for the server to split than
 * a PostgreSQL array literal is to parse, and ids never contain commas.
 */
export const splitIds = (value: string): string[] => (value === '' ? [] : value.split(','));

/** A timestamp column of a raw query, as a Date whether the driver answers a Date or its text. */
export const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

/**
 * A boolean column of a raw query (or a drizzle `sql<boolean>` field), as a boolean: PGlite and pg may
 * answer `true` or PostgreSQL's text 't', depending on the driver and how the statement was run; not
 * `Boolean(value)`, since the text 'f' is truthy.
 */
export const toBoolean = (value: unknown): boolean => value === true || value === 't';
