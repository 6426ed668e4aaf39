import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.ts';
import { accountTokens, mailSends } from '../../db/schema/index.ts';

export type TokenPurpose = 'password_reset' | 'email_change';
export type AccountTokenRow = typeof accountTokens.$inferSelect;

/**
 * Stores a new token for the account, valid `ttlMinutes` from the database's clock, and marks the
 * account's older live tokens of that purpose used: only the latest link works.
 */
export async function replaceToken(
  tx: Transaction,
  values: {
    userId: string;
    purpose: TokenPurpose;
    tokenHash: string;
    newEmail: string | null;
    ttlMinutes: number;
  },
): Promise<void> {
  await invalidateTokens(tx, values.userId, values.purpose);
  await tx.insert(accountTokens).values({
    userId: values.userId,
    purpose: values.purpose,
    tokenHash: values.tokenHash,
    newEmail: values.newEmail,
    expiresAt: sql`now() + make_interval(mins => ${values.ttlMinutes})`,
  });
}

/** Marks every live token of the account and purpose used (a newer link, or an email that changed). */
export async function invalidateTokens(db: Executor, userId: string, purpose: TokenPurpose): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)),
    );
}

const live = (tokenHash: string, purpose: TokenPurpose) =>
  and(
    eq(accountTokens.tokenHash, tokenHash),
    eq(accountTokens.purpose, purpose),
    isNull(accountTokens.usedAt),
    gt(accountTokens.expiresAt, sql`now()`),
  );

/** The token if it could still be used, without using it (to skip hashing a password for nothing). */
export async function findLiveToken(
  db: Executor,
  tokenHash: string,
  purpose: TokenPurpose,
): Promise<AccountTokenRow | null> {
  const [row] = await db.select().from(accountTokens).where(live(tokenHash, purpose)).limit(1);
  return row ?? null;
}

/**
 * Uses the token, atomically: UPDATE ... WHERE used_at IS NULL AND expires_at > now() RETURNING. Of
 * two concurrent uses only one gets the row; null for an unknown, used or expired token.
 */
export async function takeToken(
  db: Executor,
  tokenHash: string,
  purpose: TokenPurpose,
): Promise<AccountTokenRow | null> {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(live(tokenHash, purpose))
    .returning();
  return row ?? null;
}

/** Tokens used or expired more than a day ago are of no more use to anyone. */
export async function deleteDeadTokens(db: Executor): Promise<void> {
  await db
    .delete(accountTokens)
    .where(sql`coalesce(${accountTokens.usedAt}, ${accountTokens.expiresAt}) < now() - interval '1 day'`);
}

// ---- throttle ----------------------------------------------------------------------------------

/**
 * Holds the address's and the account's locks until the transaction ends, so that counting and
 * recording a send happen one request at a time on every instance (always in this order: no deadlock).
 */
export async function lockMailKeys(tx: Transaction, addressLower: string, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`mail-address:${addressLower}`}, 0))`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`mail-account:${userId}`}, 0))`);
}

/** Mails sent in the last hour to the address, and for the account. */
export async function recentSends(
  db: Executor,
  addressLower: string,
  userId: string,
): Promise<{ toAddress: number; forAccount: number }> {
  const since = sql`now() - interval '1 hour'`;
  const [toAddress] = await db
    .select({ n: count() })
    .from(mailSends)
    .where(and(eq(mailSends.addressLower, addressLower), gt(mailSends.sentAt, since)));
  const [forAccount] = await db
    .select({ n: count() })
    .from(mailSends)
    .where(and(eq(mailSends.userId, userId), gt(mailSends.sentAt, since)));
  return { toAddress: toAddress?.n ?? 0, forAccount: forAccount?.n ?? 0 };
}

export async function recordSend(
  db: Executor,
  values: { addressLower: string; userId: string; purpose: TokenPurpose },
): Promise<void> {
  await db.insert(mailSends).values(values);
}

/** Sends older than the window no longer count: the table stays small. */
export async function forgetOldSends(db: Executor): Promise<void> {
  await db.delete(mailSends).where(lt(mailSends.sentAt, sql`now() - interval '1 hour'`));
}
