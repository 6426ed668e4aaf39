import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type Appeal,
  type StatementsResponse,
  APPEAL_MESSAGES,
  APPEAL_WINDOW_DAYS,
  appealReceiptSchema,
  AUTH_MESSAGES,
  errorResponseSchema,
  statementsResponseSchema,
  suspendedAppealSchema,
  suspendedCredentialsSchema,
  loginRequestSchema,
  signupRequestSchema,
  signupResponseSchema,
  tokenResponseSchema,
} from '@cats/contracts';
import { createAuthService } from './auth.service.ts';
import { readDeviceCookie, setDeviceCookie } from './device-cookie.ts';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie.ts';
import { perMinute, rateLimitPluginOptions } from './rate-limit.ts';
import { noStore } from '../../plugins/private-answers.ts';
import type { AuthContext } from '../../plugins/auth.ts';

/**
 * What a suspended account may still do, with its credentials instead of a session (issue 27): read
 * its statements of reasons and appeal one. Moderation answers; app.ts passes it in, so auth, which
 * moderation builds on, does not import it (issue 47).
 */
export interface SuspendedAccountAppeals {
  statements(viewer: AuthContext): Promise<StatementsResponse>;
  appeal(viewer: AuthContext, actionId: string, body: string): Promise<Appeal>;
}

export interface AuthRoutesOptions {
  appeals: SuspendedAccountAppeals;
}

/** Sign-up, login, token refresh and logout (spec section 7); the only routes without a bearer token. */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { appeals }) => {
  const { config } = app;
  const auth = createAuthService({
    db: app.database.db,
    accessTokens: app.accessTokens,
    keys: app.sessionKeys,
  });
  // Registered before the routes: it attaches its hook to each route as the route is added.
  await app.register(rateLimit, rateLimitPluginOptions(config));
  // Tokens and account answers: never kept by a cache or the browser (issue 23).
  app.addHook('onSend', noStore);

  app.post(
    '/signup',
    {
      config: { rateLimit: perMinute(config.RATE_LIMIT_SIGNUP_PER_MINUTE, 'signup') },
      schema: {
        tags: ['auth'],
        summary: 'Create an account',
        body: signupRequestSchema,
        response: {
          201: signupResponseSchema,
          400: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await auth.signup(request.body);
      return reply.status(201).send({ message: AUTH_MESSAGES.accountCreated, userId: user.id });
    },
  );

  app.post(
    '/login',
    {
      config: { rateLimit: perMinute(config.RATE_LIMIT_LOGIN_PER_MINUTE, 'login') },
      schema: {
        tags: ['auth'],
        summary: 'Log in; the refresh token and a device cookie for this browser are set as httpOnly cookies',
        // Presence is checked by the service so that a missing field gets the spec's message.
        body: loginRequestSchema.optional(),
        response: {
          200: tokenResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const session = await auth.login(request.body, readDeviceCookie(request, config));
      setRefreshCookie(reply, config, session.refreshToken, session.refreshExpiresAt);
      if (session.device) setDeviceCookie(reply, config, session.device.cookie, session.device.expiresAt);
      return { accessToken: session.accessToken, userId: session.userId };
    },
  );

  // Issue 27: a suspended person reads why and appeals with their credentials, as they cannot sign in.
  app.post(
    '/login/suspension',
    {
      config: { rateLimit: perMinute(config.RATE_LIMIT_LOGIN_PER_MINUTE, 'login') },
      schema: {
        tags: ['auth'],
        summary:
          "A suspended account's statements of reasons, for its email and password (it cannot sign in); " +
          '409 when the account is not suspended',
        body: suspendedCredentialsSchema.optional(),
        response: {
          200: statementsResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const userId = await auth.suspendedAccount(request.body, readDeviceCookie(request, config));
      return appeals.statements({ userId, isDemo: false });
    },
  );

  app.post(
    '/login/suspension/appeal',
    {
      config: { rateLimit: perMinute(config.RATE_LIMIT_LOGIN_PER_MINUTE, 'login') },
      schema: {
        tags: ['auth'],
        summary: `Appeal a decision about a suspended account, with its email and password, once, within ${APPEAL_WINDOW_DAYS} days`,
        body: suspendedAppealSchema,
        response: {
          201: appealReceiptSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const userId = await auth.suspendedAccount(request.body, readDeviceCookie(request, config));
      const sent = await appeals.appeal({ userId, isDemo: false }, request.body.actionId, request.body.body);
      return reply.code(201).send({ appeal: sent, message: APPEAL_MESSAGES.sent });
    },
  );

  app.get(
    '/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'New access token from the refresh cookie; the cookie is rotated',
        response: { 200: tokenResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request, reply) => {
      try {
        const session = await auth.refresh(readRefreshCookie(request, config));
        setRefreshCookie(reply, config, session.refreshToken, session.refreshExpiresAt);
        return { accessToken: session.accessToken, userId: session.userId };
      } catch (err) {
        // A dead cookie is dropped so the browser stops presenting it.
        clearRefreshCookie(reply, config);
        throw err;
      }
    },
  );

  app.get(
    '/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'End the session of the refresh cookie; 204 even when already logged out',
        response: { 204: z.null().describe('Logged out') },
      },
    },
    async (request, reply) => {
      await auth.logout(readRefreshCookie(request, config));
      clearRefreshCookie(reply, config);
      return reply.status(204).send(null);
    },
  );
};
