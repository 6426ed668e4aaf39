import { createHmac, timingSafeEqual } from 'node:crypto';
import { isUuid } from '@cats/contracts';

/**
 * A ticket opens the caller's notification stream (issue 25). EventSource cannot send an Authorization
 * header, and an access token in a URL is written to access logs and browser history and is good for
 * 15 minutes of everything; a ticket names one user, can only open that user's stream (a read), and
 * expires STREAM_TICKET_SECONDS after it was made. It is signed with a key of its own
 * (deriveSessionKeys), so no other signature of the app passes for one. Nothing is stored: any
 * instance that shares the secret checks it.
 *
 * `<userId>.<expiry, epoch seconds>.<HMAC-SHA256 of both, base64url>`
 */
const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

export function signStreamTicket(key: Buffer, userId: string, expiresAt: Date): string {
  const payload = `${userId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/** The user a ticket names if it is ours and unexpired; null for anything else. */
export function readStreamTicket(key: Buffer, ticket: string | undefined, now: Date): string | null {
  const parts = ticket?.split('.');
  if (parts?.length !== 3) return null;
  const [userId, expires, signature] = parts as [string, string, string];
  if (!isUuid(userId) || !/^\d{1,12}$/.test(expires)) return null;
  if (Number(expires) * 1000 <= now.getTime()) return null;
  const expected = mac(key, `${userId}.${expires}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return userId.toLowerCase();
}
