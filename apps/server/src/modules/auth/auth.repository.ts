import { and, asc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { isUuid } from '@cats/contracts';
import type { Executor, Transaction } from '../../db/client.ts';
import { usernameSkeleton } from '../../lib/confusables.ts';
import { loginFailures, refreshTokens, users, type UserRow } from '../../db/schema/index.ts';

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

// ---- users --------------------------------------------------------------------------------------

/** Changes an account's own fields (its settings, a new email or password). */
export async function updateUser(
  db: Executor,
  userId: string,
  values: Partial<
    Pick<
      UserRow,
      | 'username'
      | 'email'
      | 'passwordHash'
      | 'exactPublicLocation'
      | 'altTextReminder'
      | 'homeAreaLatitude'
      | 'homeAreaLongitude'
    >
  >,
): Promise<UserRow | null> {
  // A new username brings its look-alike key (users_username_skeleton_idx decides races).
  const set =
    values.username === undefined
      ? values
      : { ...values, usernameSkeleton: usernameSkeleton(values.username) };
  const [row] = await db.update(users).set(set).where(eq(users.id, userId)).returning();
  return row ?? null;
}

/** login_failures is keyed by email, not by user, so no foreign key cascades into it. */
export async function clearLoginFailuresFor(db: Executor, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.emailLower, sql`lower(${email})`));
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** Emails are unique case-insensitively (users_email_lower_idx), so lookups compare lower-cased. */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row ?? null;
}

export async function isEmailTaken(db: Executor, email: string, exceptUserId?: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`lower(${users.email}) = lower(${email})`,
        exceptUserId ? ne(users.id, exceptUserId) : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function isUsernameTaken(
  db: Executor,
  username: string,
  exceptUserId?: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`lower(${users.username}) = lower(${username})`,
        exceptUserId ? ne(users.id, exceptUserId) : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Another account whose name looks like this one (same usernameSkeleton), other than exceptUserId. */
export async function isUsernameConfusable(
  db: Executor,
  username: string,
  exceptUserId?: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.usernameSkeleton, usernameSkeleton(username)),
        exceptUserId ? ne(users.id, exceptUserId) : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** The username's look-alike key is stored with it; users_username_skeleton_idx keeps it unique. */
export async function insertUser(
  db: Executor,
  values: { username: string; email: string; passwordHash: string },
): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ ...values, usernameSkeleton: usernameSkeleton(values.username) })
    .returning();
  return row!;
}

/** The unique index a failed insert or update ran into, or null for any other error. */
export function violatedUniqueIndex(err: unknown): string | null {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return null;
}

// ---- refresh tokens -----------------------------------------------------------------------------

export async function insertRefreshToken(
  db: Executor,
  values: { userId: string; familyId: string; tokenHash: string; expiresAt: Date; signedInAt: Date | null },
): Promise<void> {
  await db.insert(refreshTokens).values(values);
}

/** The password was typed again in this session (a password change): its next access tokens say so. */
export async function markFamilySignedIn(db: Executor, familyId: string, at: Date): Promise<void> {
  await db.update(refreshTokens).set({ signedInAt: at }).where(eq(refreshTokens.familyId, familyId));
}

// ---- session generations ------------------------------------------------------------------------

/** The generation access tokens are signed with (users.session_generation); null when the user is gone. */
export async function findSessionGeneration(db: Executor, userId: string): Promise<number | null> {
  const [row] = await db
    .select({ generation: users.sessionGeneration })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.generation ?? null;
}

/**
 * Ends every access token of the account signed so far (issue 46): called in the transaction that
 * changes or resets the password; migration 0039's trigger tells every instance when it commits.
 */
export async function bumpSessionGeneration(db: Executor, userId: string): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ sessionGeneration: sql`${users.sessionGeneration} + 1` })
    .where(eq(users.id, userId))
    .returning();
  return row ?? null;
}

export async function findRefreshToken(db: Executor, tokenHash: string): Promise<RefreshTokenRow | null> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1);
  return row ?? null;
}

/**
 * Marks a live token as used, atomically: of two concurrent refreshes with the same token only one
 * gets the row back. null when the token is unknown, already rotated, revoked or expired.
 */
export async function markRotated(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<RefreshTokenRow | null> {
  const [row] = await db
    .update(refreshTokens)
    .set({ rotatedAt: now })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.rotatedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

export async function revokeFamily(db: Executor, familyId: string, now: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Ends every session of the user except the family kept (the caller's own), if any. */
export async function revokeUserFamilies(
  db: Executor,
  userId: string,
  keepFamilyId: string | null,
  now: Date,
): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined,
      ),
    );
}

/** Dead tokens of a user (revoked or past their absolute expiry) are kept no longer than needed. */
export async function deleteExpiredRefreshTokens(db: Executor, userId: string, before: Date): Promise<void> {
  await db
    .delete(refreshTokens)
    .where(and(eq(refreshTokens.userId, userId), lt(refreshTokens.expiresAt, before)));
}

// ---- login failures -----------------------------------------------------------------------------

/** What one throttle counts: an account's attempts (deviceId null), or those of one known browser. */
export interface ThrottleKey {
  emailLower: string;
  deviceId: string | null;
}

/** A failure recorded before its password was checked; removed again if the password was right. */
export interface LoginAttempt {
  id: string;
  failedAt: Date;
}

const ofKey = (key: ThrottleKey) =>
  and(
    eq(loginFailures.emailLower, key.emailLower),
    key.deviceId === null ? isNull(loginFailures.deviceId) : eq(loginFailures.deviceId, key.deviceId),
  );

/**
 * Holds the key's lock until the transaction ends, so that counting its failures and recording the
 * next attempt happen for one request at a time (PostgreSQL's pool; PGlite runs transactions one by
 * one anyway). Other keys are not held up. Advisory keys are 64-bit: hashtextextended's.
 */
export async function lockThrottleKey(tx: Transaction, key: ThrottleKey): Promise<void> {
  const name = `login:${key.emailLower}:${key.deviceId ?? ''}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`);
}

export async function recentLoginFailures(db: Executor, key: ThrottleKey, since: Date): Promise<Date[]> {
  const rows = await db
    .select({ failedAt: loginFailures.failedAt })
    .from(loginFailures)
    .where(and(ofKey(key), gt(loginFailures.failedAt, since)))
    .orderBy(asc(loginFailures.failedAt));
  return rows.map((r) => r.failedAt);
}

export async function recordLoginFailure(db: Executor, key: ThrottleKey, at: Date): Promise<LoginAttempt> {
  const [row] = await db
    .insert(loginFailures)
    .values({ emailLower: key.emailLower, deviceId: key.deviceId, failedAt: at })
    .returning({ id: loginFailures.id, failedAt: loginFailures.failedAt });
  return row!;
}

/** Everyone's failures that fell out of the window are forgotten (the table stays small). */
export async function forgetLoginFailuresBefore(db: Executor, windowStart: Date): Promise<void> {
  await db.delete(loginFailures).where(lt(loginFailures.failedAt, windowStart));
}

/**
 * A right password clears the key's failures up to its own attempt; attempts that started after it
 * and are still being checked stay, so a success cannot wipe a concurrent guesser's count.
 */
export async function clearLoginFailures(db: Executor, key: ThrottleKey, upTo: LoginAttempt): Promise<void> {
  await db
    .delete(loginFailures)
    .where(and(ofKey(key), or(lt(loginFailures.failedAt, upTo.failedAt), eq(loginFailures.id, upTo.id))));
}
