import { z } from 'zod';

export * from './common-constants.ts';

/** Entity ids are UUIDs; anything else is answered 404 like an unknown id (never 400 or 500). */
export const idSchema = z.string();
/** The spec's page numbers start at 1. */
export const pageNumberSchema = z.coerce
  .number({ message: 'Page must be a number' })
  .int('Page must be a whole number')
  .min(1, 'Page starts at 1')
  .max(100_000, 'Page is too large');

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;
