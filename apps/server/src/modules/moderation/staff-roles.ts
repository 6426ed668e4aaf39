import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MODERATION_MESSAGES, type Role } from '@cats/contracts';
import { users } from '../../db/schema/index.ts';
import { forbidden } from '../../lib/http-errors.ts';
import { caller } from '../../plugins/auth.ts';

/**
 * Roles (issue 27, "Moderators"). The role is read from the database on every moderation request, never
 * from the token: a moderator whose role an admin revokes loses the moderation routes at their next
 * request, on every instance. Moderation requests are few, so the extra primary-key lookup is cheap.
 */
export async function roleOf(app: FastifyInstance, userId: string): Promise<Role | null> {
  const [row] = await app.database.db
    .select({ role: users.role })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return (row?.role as Role | undefined) ?? null;
}

/** preHandler (after requireAuth) for every moderation route: moderators and admins only, else 403. */
export async function requireModerator(this: FastifyInstance, request: FastifyRequest): Promise<void> {
  const role = await roleOf(this, caller(request).userId);
  if (role !== 'moderator' && role !== 'admin') throw forbidden(MODERATION_MESSAGES.notModerator);
}

/** preHandler (after requireAuth) for granting and revoking moderators: admins only, else 403. */
export async function requireAdmin(this: FastifyInstance, request: FastifyRequest): Promise<void> {
  const role = await roleOf(this, caller(request).userId);
  if (role !== 'admin') throw forbidden(MODERATION_MESSAGES.notAdmin);
}
