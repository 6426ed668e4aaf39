import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { confirmEmailRequestSchema, confirmEmailResponseSchema, errorResponseSchema } from '@cats/contracts';
import { messageLanguage } from '../../i18n/localize.ts';
import { noStore } from '../../plugins/private-answers.ts';
import { perMinute, rateLimitPluginOptions } from '../auth/rate-limit.ts';
import { createEmailChangeService } from './email-change.service.ts';

/**
 * The link mailed to a new address (issue 29). No bearer token: the link may be opened in another
 * browser or on another device; its token is the credential. The request itself is made in Settings
 * (PUT /api/profile/settings/email, modules/account).
 */
export const emailChangeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;
  const emailChange = createEmailChangeService({ db: app.database.db, mail: app.mail, log: app.log });
  await app.register(rateLimit, rateLimitPluginOptions(config, 'cats-email-confirm-'));
  app.addHook('onSend', noStore);

  app.post(
    '/email/confirm',
    {
      config: { rateLimit: perMinute(config.RATE_LIMIT_LOGIN_PER_MINUTE) },
      schema: {
        tags: ['account'],
        summary:
          'Apply an email change with the token of the link mailed to the new address, once; the old ' +
          'address is told. 409 when the address was taken meanwhile',
        body: confirmEmailRequestSchema,
        response: {
          200: confirmEmailResponseSchema,
          400: errorResponseSchema,
          403: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request) =>
      emailChange.confirm(request.body.token, messageLanguage(request.headers['accept-language'])),
  );
};
