import { z } from 'zod';

/** GET /api/health: liveness. The process answers and its database answers a trivial query. */
export const healthResponseSchema = z.object({ status: z.literal('ok') });
export const healthUnavailableSchema = z.object({ status: z.literal('unavailable'), message: z.string() });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/**
 * What GET /api/health/ready checks, each with a short timeout: the database, the media storage (local
 * disk writable, or the bucket reachable) and Redis when REDIS_URL is set (absent otherwise).
 */
export const readinessCheckResultSchema = z.enum(['ok', 'failed']);
export const readinessChecksSchema = z.object({
  database: readinessCheckResultSchema,
  storage: readinessCheckResultSchema,
  redis: readinessCheckResultSchema.optional(),
});
export type ReadinessChecks = z.infer<typeof readinessChecksSchema>;

/** 200: this instance takes traffic. */
export const readinessResponseSchema = z.object({
  status: z.literal('ready'),
  checks: readinessChecksSchema,
});
export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;

/**
 * 503: a check failed (`unavailable`, the message names which), or the server is draining before it
 * stops (`draining`: a load balancer should send its traffic elsewhere; liveness still answers ok).
 */
export const readinessUnavailableSchema = z.object({
  status: z.enum(['unavailable', 'draining']),
  message: z.string(),
  checks: readinessChecksSchema.partial(),
});
export type ReadinessUnavailable = z.infer<typeof readinessUnavailableSchema>;
