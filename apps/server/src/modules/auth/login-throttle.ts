/**
 * Per-account login throttling (issue 3): five failures within 15 minutes lock the account's logins for
 * a delay that doubles with each further failure (1, 2, 4, 8 minutes, at most 15). Failures older than
 * the window stop counting, so the lock always lifts by itself: no permanent lockout that an attacker
 * could inflict on someone else's account.
 */
export const LOGIN_THROTTLE = {
  windowMs: 15 * 60 * 1000,
  freeFailures: 5,
  baseDelayMs: 60 * 1000,
  maxDelayMs: 15 * 60 * 1000,
} as const;

/** Milliseconds the account stays locked, given its failure times inside the window; 0 when open. */
export function lockRemainingMs(failures: readonly Date[], now: Date): number {
  const recent = failures.filter((at) => now.getTime() - at.getTime() < LOGIN_THROTTLE.windowMs);
  if (recent.length < LOGIN_THROTTLE.freeFailures) return 0;
  const last = Math.max(...recent.map((at) => at.getTime()));
  const delay = Math.min(
    LOGIN_THROTTLE.maxDelayMs,
    LOGIN_THROTTLE.baseDelayMs * 2 ** (recent.length - LOGIN_THROTTLE.freeFailures),
  );
  return Math.max(0, last + delay - now.getTime());
}
