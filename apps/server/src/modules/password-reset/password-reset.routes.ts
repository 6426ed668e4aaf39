import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_MAIL_MESSAGES,
  errorResponseSchema,
  forgotPasswordRequestSchema,
  messageResponseSchema,
  resetPasswordRequestSchema,
  tokenResponseSchema,
} from '@cats/contracts';
import { messageLanguage } from '../../i18n/localize.ts';
import { noStore } from '../../plugins/private-answers.ts';
import { createAuthService } from '../auth/auth.service.ts';
import { readDeviceCookie, setDeviceCookie } from '../auth/device-cookie.ts';
import { perMinute, rateLimitPluginOptions } from '../auth/rate-limit.ts';
import { setRefreshCookie } from '../auth/refresh-cookie.ts';
import { createPasswordResetService } from './password-reset.service.ts';

/** 'Forgot password?' (issue 29): no bearer token; the mailed link's token is the credential. */
export const passwordResetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;
  const reset = createPasswordResetService({
    db: app.database.db,
    mail: app.mail,
    auth: createAuthService({ db: app.database.db, accessTokens: app.accessTokens, keys: app.sessionKeys }),
    liveUsers: app.liveUsers,
    log: app.log,
  });
  // The per-IP limit of the credential endpoints (RATE_LIMIT_LOGIN_PER_MINUTE), with its own counters.
  await app.register(rateLimit, rateLimitPluginOptions(config, 'cats-reset-'));
  app.addHook('onSend', noStore);
  const limit = { rateLimit: perMinute(config.RATE_LIMIT_LOGIN_PER_MINUTE) };

  app.post(
    '/password/forgot',
    {
      config: limit,
      schema: {
        tags: ['auth'],
        summary:
          'Mail a link to choose a new password (valid 30 minutes, once) when an account uses the address; ' +
          'always 202 with the same answer',
        body: forgotPasswordRequestSchema,
        response: { 202: messageResponseSchema, 400: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request, reply) => {
      reset.forgot(request.body.email, messageLanguage(request.headers['accept-language']));
      return reply.code(202).send({ message: ACCOUNT_MAIL_MESSAGES.forgotPasswordSent });
    },
  );

  app.post(
    '/password/reset',
    {
      config: limit,
      schema: {
        tags: ['auth'],
        summary:
          "Set a new password with the mailed link's token (sign-up's rules); ends every session of the " +
          'account and logs in as /api/login does',
        body: resetPasswordRequestSchema,
        response: {
          200: tokenResponseSchema,
          400: errorResponseSchema,
          403: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const session = await reset.reset(
        request.body.token,
        request.body.password,
        readDeviceCookie(request, config),
      );
      setRefreshCookie(reply, config, session.refreshToken, session.refreshExpiresAt);
      if (session.device) setDeviceCookie(reply, config, session.device.cookie, session.device.expiresAt);
      return { accessToken: session.accessToken, userId: session.userId };
    },
  );
};
