// Constants and plain functions only: no zod here, so the web app can import them without loading
// the schema library (docs/performance.md). common.ts re-exports them beside its schemas.

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

/**
 * Characters that show nothing on their own: whitespace, default-ignorable code points (zero-width
 * spaces and joiners, Hangul fillers, variation selectors...), controls and format characters, lone
 * combining marks, and the braille blank (U+2800), which fonts draw as an empty cell.
 */
const INVISIBLE = /[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Mn}\p{Me}\u2800]/gu;

/** False for a name that would show as blank: made only of invisible characters (issue 23). */
export const hasVisibleCharacter = (text: string): boolean => text.replace(INVISIBLE, '').length > 0;

/**
 * A plain decimal number as people and Leaflet write coordinates: optional sign, digits, optional
 * fraction (`-12.345`, `.5`). JavaScript's Number() also reads `0x10` as 16, `0b1`, `0o7`, `1e1` and
 * `Infinity`; none of those is a coordinate anyone typed (issue 23).
 */
export const DECIMAL_PATTERN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** The text as a decimal number, or null when it is anything else (surrounding spaces allowed). */
export function parseDecimal(text: string): number | null {
  const trimmed = text.trim();
  if (!DECIMAL_PATTERN.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}
