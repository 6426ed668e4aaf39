import { asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { Role } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';

export interface StaffRow {
  id: string;
  username: string;
  email: string;
  role: Role;
}

const columns = { id: users.id, username: users.username, email: users.email, role: users.role };
const cast = (row: { id: string; username: string; email: string; role: string }): StaffRow => ({
  ...row,
  role: row.role as Role,
});

/** Moderators and admins, admins first, then by name (users_staff_idx). */
export async function listStaff(ex: Executor): Promise<StaffRow[]> {
  const rows = await ex
    .select(columns)
    .from(users)
    .where(ne(users.role, 'member'))
    .orderBy(desc(sql`${users.role} = 'admin'`), asc(sql`lower(${users.username})`));
  return rows.map(cast);
}

export async function findById(ex: Executor, userId: string): Promise<StaffRow | null> {
  const [row] = await ex.select(columns).from(users).where(eq(users.id, userId)).limit(1);
  return row ? cast(row) : null;
}

/** Case-insensitive, as usernames are unique (users_username_lower_idx). */
export async function findByUsername(ex: Executor, username: string): Promise<StaffRow | null> {
  const [row] = await ex
    .select(columns)
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .limit(1);
  return row ? cast(row) : null;
}

/** Emails are unique case-insensitively (users_email_lower_idx). */
export async function findByEmail(ex: Executor, email: string): Promise<StaffRow | null> {
  const [row] = await ex
    .select(columns)
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email.trim()})`)
    .limit(1);
  return row ? cast(row) : null;
}

export async function setRole(ex: Executor, userId: string, role: Role): Promise<StaffRow | null> {
  const [row] = await ex.update(users).set({ role }).where(eq(users.id, userId)).returning(columns);
  return row ? cast(row) : null;
}
