// Constants and plain functions only: no zod here, so the web app can import them without loading
// the schema library (docs/performance.md). errors.ts re-exports them beside its schemas.

export const DEMO_DISABLED_MESSAGE = 'Feature disabled for demo user';
