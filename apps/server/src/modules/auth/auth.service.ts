import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  APPEAL_MESSAGES,
  AUTH_MESSAGES,
  DEMO_EMAIL,
  REFRESH_TOKEN_TTL_SECONDS,
  type SignupRequest,
  type TokenResponse,
} from '@cats/contracts';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { HttpError } from '../../lib/http-errors.ts';
import { badRequest, conflict, forbidden, RateLimitError, unauthorized } from '../../lib/http-errors.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import type { AccessTokens, SessionKeys } from '../../plugins/auth.ts';
import * as repo from './auth.repository.ts';
import { DEVICE_COOKIE_TTL_SECONDS, readDevice, signDevice, type Device } from './device-cookie.ts';
import { LOGIN_THROTTLE, lockRemainingMs } from './login-throttle.ts';
import { findSuspension } from '../suspensions/suspensions.repository.ts';
import { activeSuspension, refuseIfSuspended, suspendedRefusal } from '../suspensions/suspensions.ts';

/** How long a just-rotated refresh token still counts as a concurrent refresh rather than reuse. */
export const REFRESH_REUSE_GRACE_MS = 10_000;

export interface AuthDeps {
  db: Database;
  accessTokens: AccessTokens;
  keys: SessionKeys;
}

/** A signed-in session: the access token for the body, the refresh token for the cookie. */
export interface Session extends TokenResponse {
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** The device cookie to set after a login; null for the demo account. */
export interface IssuedDevice {
  cookie: string;
  expiresAt: Date;
}

export interface LoginSession extends Session {
  device: IssuedDevice | null;
}

/** Refresh tokens are opaque random strings; only their SHA-256 is stored, so a database leak is no login. */
const newRefreshToken = () => randomBytes(32).toString('base64url');
export const hashRefreshToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Verified when the email is unknown, so both wrong-credential answers take about the same time. */
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')));

const tooManyAttempts = (remainingMs: number) =>
  // Named for the metrics' refusal counter (the per-account throttle, beside the per-IP limits).
  new RateLimitError('login_account', AUTH_MESSAGES.tooManyAttempts, {
    'retry-after': String(Math.max(1, Math.ceil(remainingMs / 1000))),
  });

/** The account's suspension in force at `now`, as a refresh's outcome; null when there is none. */
async function suspensionOf(
  tx: Executor,
  userId: string,
  now: Date,
  lock = false,
): Promise<{ suspendedUntil: Date | null } | null> {
  const row = await findSuspension(tx, userId, lock);
  const active = row ? activeSuspension(row, now) : null;
  return active ? { suspendedUntil: active.until } : null;
}

export function createAuthService({ db, accessTokens, keys }: AuthDeps) {
  void getDummyHash();
  /** The demo account's password is public: throttling it would only let anyone lock everyone out. */
  const throttled = (emailLower: string) => emailLower !== DEMO_EMAIL.toLowerCase();

  /**
   * Takes one attempt from the key's allowance before the password is checked, or refuses with 429
   * while the key is locked (issue 23). Counting and recording happen under the key's lock, so of 30
   * simultaneous guesses only the allowance's 5 get to argon2. The attempt is recorded as a failure up
   * front; a right password removes it again (attemptSucceeded). null: the key is not throttled.
   */
  async function beginAttempt(key: repo.ThrottleKey, now: Date): Promise<repo.LoginAttempt | null> {
    if (!throttled(key.emailLower)) return null;
    const windowStart = new Date(now.getTime() - LOGIN_THROTTLE.windowMs);
    type Outcome = { remainingMs: number } | { attempt: repo.LoginAttempt };
    const outcome = await db.transaction(async (tx): Promise<Outcome> => {
      await repo.lockThrottleKey(tx, key);
      const remainingMs = lockRemainingMs(await repo.recentLoginFailures(tx, key, windowStart), now);
      if (remainingMs > 0) return { remainingMs };
      return { attempt: await repo.recordLoginFailure(tx, key, now) };
    });
    if ('remainingMs' in outcome) throw tooManyAttempts(outcome.remainingMs);
    // Outside the key's transaction: other keys' rows are not this lock's to hold.
    await repo.forgetLoginFailuresBefore(db, windowStart);
    return outcome.attempt;
  }

  const throttleKey = (email: string, device: Device | null): repo.ThrottleKey => ({
    emailLower: email.toLowerCase(),
    deviceId: device?.deviceId ?? null,
  });

  /**
   * A right password's browser is remembered for its account, with a year from now. The demo account
   * is never locked, so its cookie would only replace the one of the visitor's own account.
   */
  function issueDevice(user: UserRow, deviceId: string, now: Date): IssuedDevice | null {
    if (!throttled(user.email.toLowerCase())) return null;
    const expiresAt = new Date(now.getTime() + DEVICE_COOKIE_TTL_SECONDS * 1000);
    return { cookie: signDevice(keys.device, { userId: user.id, deviceId }, expiresAt), expiresAt };
  }

  /** A right password clears its key's failures: a device's success leaves the account's lock alone. */
  async function attemptSucceeded(key: repo.ThrottleKey, attempt: repo.LoginAttempt | null): Promise<void> {
    if (attempt) await repo.clearLoginFailures(db, key, attempt);
  }

  /**
   * Spec section 8: 400 when a field is missing, 401 for any wrong credentials, 429 while locked; the
   * throttle counts the attempt (a wrong password stays recorded as the failure beginAttempt wrote, a
   * right one clears it). Shared by a login and a suspended person's reading and appeal (issue 27).
   */
  async function checkCredentials(
    input: { email?: string | undefined; password?: string | undefined } | undefined,
    deviceCookie: string | undefined,
    now: Date,
  ): Promise<{ user: UserRow; device: Device | null }> {
    const email = input?.email?.trim();
    const password = input?.password;
    if (!email || !password) throw badRequest(AUTH_MESSAGES.missingCredentials);
    // Looked up before the throttle: only a known account can have a device of its own.
    const user = await repo.findUserByEmail(db, email);
    const device = user ? readDevice(keys.device, deviceCookie, user.id, now) : null;
    const key = throttleKey(email, device);
    const attempt = await beginAttempt(key, now);
    let valid = false;
    if (user) valid = await verifyPassword(user.passwordHash, password);
    else await verifyPassword(await getDummyHash(), password);
    if (!user || !valid) throw unauthorized(AUTH_MESSAGES.unauthorized);
    await attemptSucceeded(key, attempt);
    return { user, device };
  }

  /**
   * The token that replaces a rotated one is derived from it with a server key: a refresh repeated
   * within the grace window derives the same successor and gets that session back, so a family never
   * has more than one live token (issue 23). Without the key nobody can derive it.
   */
  const successorOf = (token: string) =>
    createHmac('sha256', keys.refreshSuccessor).update(token).digest('base64url');

  async function startSession(
    tx: Executor,
    userId: string,
    familyId: string,
    expiresAt: Date,
    signedInAt: Date | null,
    refreshToken = newRefreshToken(),
  ) {
    await repo.insertRefreshToken(tx, {
      userId,
      familyId,
      tokenHash: hashRefreshToken(refreshToken),
      expiresAt,
      signedInAt,
    });
    return refreshToken;
  }

  /** A new session (refresh-token family) for a user whose credentials were checked. */
  async function openSession(user: UserRow, device: Device | null, now: Date): Promise<LoginSession> {
    // Only a right password learns of a suspension (issue 27); one that has ended is lifted here.
    await refuseIfSuspended(db, user.id, user, now);
    const refreshExpiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
    const refreshToken = await db.transaction(async (tx) => {
      await repo.deleteExpiredRefreshTokens(tx, user.id, now);
      return startSession(tx, user.id, randomUUID(), refreshExpiresAt, now);
    });
    return {
      // The password (or a reset link) was used just now: the session counts as a recent sign-in.
      accessToken: await accessTokens.sign(user.id, { generation: user.sessionGeneration, signedInAt: now }),
      userId: user.id,
      refreshToken,
      refreshExpiresAt,
      device: issueDevice(user, device?.deviceId ?? randomUUID(), now),
    };
  }

  return {
    async signup(input: SignupRequest): Promise<UserRow> {
      // Checked first for a readable message; the unique indexes still decide a race between two sign-ups.
      if (await repo.isEmailTaken(db, input.email)) throw conflict(AUTH_MESSAGES.emailTaken);
      if (await repo.isUsernameTaken(db, input.username)) throw conflict(AUTH_MESSAGES.usernameTaken);
      if (await repo.isUsernameConfusable(db, input.username))
        throw conflict(AUTH_MESSAGES.usernameConfusable);
      const passwordHash = await hashPassword(input.password);
      try {
        return await repo.insertUser(db, { username: input.username, email: input.email, passwordHash });
      } catch (err) {
        throw uniqueConflict(err) ?? err;
      }
    },

    /**
     * Spec section 8: 400 when a field is missing, 401 for any wrong credentials, 429 while locked.
     * `deviceCookie`: the browser's device cookie, if any; one of this account's puts the attempt on
     * that device's own count instead of the account's (device-cookie.ts).
     */
    async login(
      input: { email?: string | undefined; password?: string | undefined } | undefined,
      deviceCookie?: string,
    ): Promise<LoginSession> {
      const now = new Date();
      const { user, device } = await checkCredentials(input, deviceCookie, now);
      return openSession(user, device, now);
    },

    /**
     * A login without the password, for someone who proved otherwise that the account is theirs (a
     * password reset through the link mailed to it, issue 29): the same session, cookie and
     * suspension check as a login.
     */
    async loginAfterReset(user: UserRow, deviceCookie: string | undefined): Promise<LoginSession> {
      const now = new Date();
      return openSession(user, readDevice(keys.device, deviceCookie, user.id, now), now);
    },

    /**
     * The suspended account behind these credentials (issue 27, "The author's side"): a suspended
     * person cannot sign in, yet must be able to read why and appeal. The same checks as a login (its
     * throttle, 401 for any wrong credentials) and then 409 unless a suspension is in force. Answers
     * the account's id; no session is started.
     */
    async suspendedAccount(
      input: { email?: string | undefined; password?: string | undefined } | undefined,
      deviceCookie?: string,
    ): Promise<string> {
      const now = new Date();
      const { user } = await checkCredentials(input, deviceCookie, now);
      if (!activeSuspension(user, now)) throw conflict(APPEAL_MESSAGES.notSuspended);
      return user.id;
    },

    /**
     * Rotation: the presented token is used up and a new one of the same family replaces it, keeping
     * the family's absolute expiry. A token presented again after its rotation means two parties hold
     * it (one of them stole it): the whole family is revoked, which logs both out.
     */
    async refresh(token: string | undefined): Promise<Session> {
      if (!token) throw unauthorized(AUTH_MESSAGES.unauthorized);
      const tokenHash = hashRefreshToken(token);
      const now = new Date();
      // The revocation must commit, so the transaction returns the outcome and the error is thrown after.
      const outcome = await db.transaction(async (tx) => {
        const successor = successorOf(token);
        const used = await repo.markRotated(tx, tokenHash, now);
        if (!used) {
          const known = await repo.findRefreshToken(tx, tokenHash);
          // A suspension revoked every session of the account: say why rather than 'Forbidden'.
          const suspension = known ? await suspensionOf(tx, known.userId, now) : null;
          if (suspension) return suspension;
          if (!known?.rotatedAt || known.revokedAt || known.expiresAt <= now) return null;
          // Two tabs restoring the same remembered session race with one cookie: a token rotated a
          // moment ago is a concurrent refresh, not a theft, and gets the successor the first one got.
          // (On PostgreSQL markRotated waited for the first refresh to commit, so its row is there.)
          if (now.getTime() - known.rotatedAt.getTime() <= REFRESH_REUSE_GRACE_MS) {
            const next = await repo.findRefreshToken(tx, hashRefreshToken(successor));
            // Missing only for a token rotated before successors were derived: that tab signs in again.
            if (!next || next.revokedAt) return null;
            const generation = await repo.findSessionGeneration(tx, known.userId);
            if (generation === null) return null;
            return {
              userId: known.userId,
              refreshToken: successor,
              refreshExpiresAt: known.expiresAt,
              claims: { generation, signedInAt: next.signedInAt },
            };
          }
          await repo.revokeFamily(tx, known.familyId, now);
          return null;
        }
        // FOR SHARE: a suspension being written is waited for, and one written after this sees the
        // successor below and revokes it too.
        const suspension = await suspensionOf(tx, used.userId, now, true);
        if (suspension) return suspension;
        // Read under that lock too: a password change committed before it is seen; one after it
        // revokes the successor below and bumps the generation past this one.
        const generation = await repo.findSessionGeneration(tx, used.userId);
        if (generation === null) return null;
        const refreshToken = await startSession(
          tx,
          used.userId,
          used.familyId,
          used.expiresAt,
          used.signedInAt,
          successor,
        );
        return {
          userId: used.userId,
          refreshToken,
          refreshExpiresAt: used.expiresAt,
          claims: { generation, signedInAt: used.signedInAt },
        };
      });
      if (!outcome) throw forbidden(AUTH_MESSAGES.forbidden);
      if ('suspendedUntil' in outcome) throw suspendedRefusal(outcome.suspendedUntil);
      const { claims, ...session } = outcome;
      return { ...session, accessToken: await accessTokens.sign(outcome.userId, claims) };
    },

    /** Ends the session the cookie belongs to (its whole family). Quietly does nothing without one. */
    async logout(token: string | undefined): Promise<void> {
      if (!token) return;
      const known = await repo.findRefreshToken(db, hashRefreshToken(token));
      if (known) await repo.revokeFamily(db, known.familyId, new Date());
    },

    /**
     * Confirms a signed-in user's current password before a settings change. Wrong guesses count
     * against the same per-account throttle as logins, so a stolen access token cannot be used to
     * guess the password either. Wrong password is 400, not 401/403, which the web client would take
     * for an expired session. A device cookie of the account counts apart here too, as at login: a
     * thief with an access token alone is held by the account's lock, while the owner, whom an attacker
     * keeps locked out, can still change the password from a known browser, which matters most then.
     */
    async confirmPassword(user: UserRow, password: string, deviceCookie?: string): Promise<void> {
      const now = new Date();
      const key = throttleKey(user.email, readDevice(keys.device, deviceCookie, user.id, now));
      const attempt = await beginAttempt(key, now);
      if (!(await verifyPassword(user.passwordHash, password))) {
        throw badRequest(AUTH_MESSAGES.currentPasswordIncorrect);
      }
      await attemptSucceeded(key, attempt);
    },

    /** The refresh-token family a cookie belongs to, when it is a live session of this user. */
    async sessionFamilyOf(userId: string, token: string | undefined): Promise<string | null> {
      if (!token) return null;
      const known = await repo.findRefreshToken(db, hashRefreshToken(token));
      return known && known.userId === userId && !known.revokedAt ? known.familyId : null;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

/** A unique-index violation as the readable 409 of the field it is about, else null. */
export function uniqueConflict(err: unknown): HttpError | null {
  const index = repo.violatedUniqueIndex(err);
  if (index === null) return null;
  if (index.includes('email')) return conflict(AUTH_MESSAGES.emailTaken);
  if (index.includes('skeleton')) return conflict(AUTH_MESSAGES.usernameConfusable);
  if (index.includes('username')) return conflict(AUTH_MESSAGES.usernameTaken);
  return null;
}
