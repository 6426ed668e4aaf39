import { isUuid, MODERATION_QUEUE_MESSAGES, type Role, type StaffMember } from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import { conflict, forbidden, notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import * as repo from './staff.repository.ts';

const toMember = (row: repo.StaffRow): StaffMember => ({
  _id: row.id,
  username: row.username,
  role: row.role,
});

export async function listStaff(db: Database): Promise<StaffMember[]> {
  return (await repo.listStaff(db)).map(toMember);
}

/**
 * An admin makes someone a moderator or a member again (issue 27). `user` is an id or a username. An
 * admin's role, and one's own, are changed on the command line only (npm run admin), so that no admin
 * can be locked out from the web, nor lock themselves out.
 */
export async function setModeratorRole(
  db: Database,
  admin: AuthContext,
  user: string,
  role: Extract<Role, 'moderator' | 'member'>,
): Promise<StaffMember> {
  const target = isUuid(user)
    ? await repo.findById(db, user.toLowerCase())
    : await repo.findByUsername(db, user);
  if (!target) throw notFound(MODERATION_QUEUE_MESSAGES.userNotFound);
  if (target.id === admin.userId) throw forbidden(MODERATION_QUEUE_MESSAGES.cannotChangeSelf);
  if (target.role === 'admin') throw conflict(MODERATION_QUEUE_MESSAGES.cannotChangeAdmin);
  if (target.role === role) return toMember(target);
  const updated = await repo.setRole(db, target.id, role);
  if (!updated) throw notFound(MODERATION_QUEUE_MESSAGES.userNotFound);
  return toMember(updated);
}
