import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  AUTH_MESSAGES,
  DEMO_EMAIL,
  REFRESH_TOKEN_TTL_SECONDS,
  type SignupRequest,
  type TokenResponse,
} from '@cats/contracts';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { badRequest, conflict, forbidden, HttpError, unauthorized } from '../../lib/http-errors.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import type { AccessTokens } from '../../plugins/auth.ts';
import * as repo from './auth.repository.ts';
import { LOGIN_THROTTLE, lockRemainingMs } from './login-throttle.ts';

/** How long a just-rotated refresh token still counts as a concurrent refresh rather than reuse. */
export const REFRESH_REUSE_GRACE_MS = 10_000;

export interface AuthDeps {
  db: Database;
  accessTokens: AccessTokens;
}

/** A signed-in session: the access token for the body, the refresh token for the cookie. */
export interface Session extends TokenResponse {
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** Refresh tokens are opaque random strings; only their SHA-256 is stored, so a database leak is no login. */
const newRefreshToken = () => randomBytes(32).toString('base64url');
export const hashRefreshToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Verified when the email is unknown, so both wrong-credential answers take about the same time. */
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')));

const tooManyAttempts = (remainingMs: number) =>
  new HttpError(429, AUTH_MESSAGES.tooManyAttempts, {
    'retry-after': String(Math.max(1, Math.ceil(remainingMs / 1000))),
  });

export function createAuthService({ db, accessTokens }: AuthDeps) {
  void getDummyHash();
  /** The demo account's password is public: throttling it would only let anyone lock everyone out. */
  const throttled = (emailLower: string) => emailLower !== DEMO_EMAIL.toLowerCase();

  async function assertNotLocked(emailLower: string, now: Date): Promise<void> {
    if (!throttled(emailLower)) return;
    const since = new Date(now.getTime() - LOGIN_THROTTLE.windowMs);
    const remaining = lockRemainingMs(await repo.recentLoginFailures(db, emailLower, since), now);
    if (remaining > 0) throw tooManyAttempts(remaining);
  }

  async function recordFailure(emailLower: string, now: Date): Promise<void> {
    if (!throttled(emailLower)) return;
    await repo.recordLoginFailure(db, emailLower, now, new Date(now.getTime() - LOGIN_THROTTLE.windowMs));
  }

  async function startSession(tx: Executor, userId: string, familyId: string, expiresAt: Date) {
    const refreshToken = newRefreshToken();
    await repo.insertRefreshToken(tx, {
      userId,
      familyId,
      tokenHash: hashRefreshToken(refreshToken),
      expiresAt,
    });
    return refreshToken;
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

    /** Spec section 8: 400 when a field is missing, 401 for any wrong credentials, 429 while locked. */
    async login(input: { email?: string | undefined; password?: string | undefined } | undefined) {
      const email = input?.email?.trim();
      const password = input?.password;
      if (!email || !password) throw badRequest(AUTH_MESSAGES.missingCredentials);
      const emailLower = email.toLowerCase();
      const now = new Date();
      await assertNotLocked(emailLower, now);
      const user = await repo.findUserByEmail(db, email);
      let valid = false;
      if (user) valid = await verifyPassword(user.passwordHash, password);
      else await verifyPassword(await getDummyHash(), password);
      if (!user || !valid) {
        await recordFailure(emailLower, now);
        throw unauthorized(AUTH_MESSAGES.unauthorized);
      }
      await repo.clearLoginFailures(db, emailLower);
      const refreshExpiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000);
      const refreshToken = await db.transaction(async (tx) => {
        await repo.deleteExpiredRefreshTokens(tx, user.id, now);
        return startSession(tx, user.id, randomUUID(), refreshExpiresAt);
      });
      const session: Session = {
        accessToken: await accessTokens.sign(user.id),
        userId: user.id,
        refreshToken,
        refreshExpiresAt,
      };
      return session;
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
        const used = await repo.markRotated(tx, tokenHash, now);
        if (!used) {
          const known = await repo.findRefreshToken(tx, tokenHash);
          if (!known?.rotatedAt || known.revokedAt || known.expiresAt <= now) return null;
          // Two tabs restoring the same remembered session race with one cookie: a token rotated a
          // moment ago is a concurrent refresh, not a theft, and gets a sibling in the same family.
          if (now.getTime() - known.rotatedAt.getTime() <= REFRESH_REUSE_GRACE_MS) {
            const refreshToken = await startSession(tx, known.userId, known.familyId, known.expiresAt);
            return { userId: known.userId, refreshToken, refreshExpiresAt: known.expiresAt };
          }
          await repo.revokeFamily(tx, known.familyId, now);
          return null;
        }
        const refreshToken = await startSession(tx, used.userId, used.familyId, used.expiresAt);
        return { userId: used.userId, refreshToken, refreshExpiresAt: used.expiresAt };
      });
      if (!outcome) throw forbidden(AUTH_MESSAGES.forbidden);
      return { ...outcome, accessToken: await accessTokens.sign(outcome.userId) };
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
     * for an expired session.
     */
    async confirmPassword(user: UserRow, password: string): Promise<void> {
      const emailLower = user.email.toLowerCase();
      const now = new Date();
      await assertNotLocked(emailLower, now);
      if (!(await verifyPassword(user.passwordHash, password))) {
        await recordFailure(emailLower, now);
        throw badRequest(AUTH_MESSAGES.currentPasswordIncorrect);
      }
      await repo.clearLoginFailures(db, emailLower);
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
