import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_MESSAGES,
  errorResponseSchema,
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

/** Sign-up, login, token refresh and logout (spec section 7); the only routes without a bearer token. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
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
      config: { rateLimit: perMinute(config.RATE_LIMIT_SIGNUP_PER_MINUTE) },
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
      config: { rateLimit: perMinute(config.RATE_LIMIT_LOGIN_PER_MINUTE) },
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
