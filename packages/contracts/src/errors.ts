import { z } from 'zod';

export * from './errors-constants.ts';

/** Every API error, whatever its status, is this shape. */
export const errorResponseSchema = z.object({ message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
