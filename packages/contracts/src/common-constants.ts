// Constants and plain functions only: no zod here, so the web app can import them without loading
// the schema library (docs/performance.md). common.ts re-exports them beside its schemas.

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
