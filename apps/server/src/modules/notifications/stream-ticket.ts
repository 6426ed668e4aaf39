import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isUuid } from '@cats/contracts';

/**
 * A ticket opens the caller's notification stream (issue 25). EventSource cannot send an Authorization
 * header, and an access token in a URL is written to access logs and browser history and is good for
 * 15 minutes of everything; a ticket names one user, can only open that user's stream (a read), and
 * expires STREAM_TICKET_SECONDS after it was made. It is signed with a key of its own
 * (deriveSessionKeys), so no other signature of the app passes for one. Any instance that shares the
 * secret checks it; each opens one stream only (issue 46): its random nonce is recorded when it is
 * used (stream-tickets.repository.ts), so one ticket cannot open a thousand streams. It carries the
 * session generation of the access token it was taken with (users.session_generation, issue 46): a
 * password change or reset after it refuses the ticket, as it refuses the token.
 *
 * `<userId>.<generation>.<expiry, epoch seconds>.<nonce, 16 random bytes base64url>.<HMAC-SHA256 of the rest, base64url>`
 */
const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

export function signStreamTicket(
  key: Buffer,
  session: { userId: string; generation: number },
  expiresAt: Date,
): string {
  const nonce = randomBytes(16).toString('base64url');
  const payload = `${session.userId}.${session.generation}.${Math.floor(expiresAt.getTime() / 1000)}.${nonce}`;
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

export interface StreamTicket {
  userId: string;
  /** The session generation it was taken in: the account's must still be this one. */
  generation: number;
  /** What is recorded when the ticket is used. */
  nonce: string;
  expiresAt: Date;
}

/** What a ticket says if it is ours and unexpired; null for anything else. */
export function readStreamTicket(key: Buffer, ticket: string | undefined, now: Date): StreamTicket | null {
  const parts = ticket?.split('.');
  if (parts?.length !== 5) return null;
  const [userId, generation, expires, nonce, signature] = parts as [string, string, string, string, string];
  if (!isUuid(userId) || !/^(0|[1-9]\d{0,9})$/.test(generation)) return null;
  if (!/^\d{1,12}$/.test(expires) || !/^[\w-]{22}$/.test(nonce)) return null;
  if (Number(expires) * 1000 <= now.getTime()) return null;
  const expected = mac(key, `${userId}.${generation}.${expires}.${nonce}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return {
    userId: userId.toLowerCase(),
    generation: Number(generation),
    nonce,
    expiresAt: new Date(Number(expires) * 1000),
  };
}
