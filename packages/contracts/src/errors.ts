import { z } from 'zod';

/** Every API error, whatever its status, is this shape. */
export const errorResponseSchema = z.object({ message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const DEMO_DISABLED_MESSAGE = 'Feature disabled for demo user';
