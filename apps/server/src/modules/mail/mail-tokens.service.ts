import { createHash, randomBytes } from 'node:crypto';
import { MAIL_LIMITS } from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import * as repo from './mail-tokens.repository.ts';

/** 32 random bytes, URL-safe: what the link carries. Only its SHA-256 is stored. */
export const newMailToken = () => randomBytes(32).toString('base64url');
export const hashMailToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type IssueOutcome = { token: string } | { throttled: 'address' | 'account' };

/**
 * Decides whether a mail with a link may go to `address` for the account (MAIL_LIMITS, counted in the
 * database so that every instance shares them) and, if so, records the send and stores a new token,
 * which makes the account's older ones of that purpose useless. One transaction under the address's
 * and the account's locks: concurrent requests cannot both take the last allowed send.
 */
export async function issueMailToken(
  db: Database,
  values: {
    userId: string;
    address: string;
    purpose: repo.TokenPurpose;
    newEmail: string | null;
    ttlMinutes: number;
  },
): Promise<IssueOutcome> {
  const addressLower = values.address.toLowerCase();
  const token = newMailToken();
  const outcome = await db.transaction(async (tx): Promise<IssueOutcome> => {
    await repo.lockMailKeys(tx, addressLower, values.userId);
    const sent = await repo.recentSends(tx, addressLower, values.userId);
    if (sent.toAddress >= MAIL_LIMITS.perAddressPerHour) return { throttled: 'address' };
    if (sent.forAccount >= MAIL_LIMITS.perAccountPerHour) return { throttled: 'account' };
    await repo.recordSend(tx, { addressLower, userId: values.userId, purpose: values.purpose });
    await repo.replaceToken(tx, {
      userId: values.userId,
      purpose: values.purpose,
      tokenHash: hashMailToken(token),
      newEmail: values.newEmail,
      ttlMinutes: values.ttlMinutes,
    });
    return { token };
  });
  // Outside the locks: housekeeping for everyone.
  await repo.forgetOldSends(db);
  await repo.deleteDeadTokens(db);
  return outcome;
}
