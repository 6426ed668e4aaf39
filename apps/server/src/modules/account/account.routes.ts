import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  changeUsernameRequestSchema,
  deleteAccountRequestSchema,
  emailChangeRequestedSchema,
  errorResponseSchema,
  homeAreaRequestSchema,
  locationPrivacyRequestSchema,
  altTextReminderRequestSchema,
  myProfileResponseSchema,
} from '@cats/contracts';
import { assertNotDemo, requireAuth } from '../../plugins/auth.ts';
import { createAuthService } from '../auth/auth.service.ts';
import { readDeviceCookie } from '../auth/device-cookie.ts';
import { clearRefreshCookie, readRefreshCookie } from '../auth/refresh-cookie.ts';
import { messageLanguage } from '../../i18n/localize.ts';
import { createEmailChangeService } from '../email-change/email-change.service.ts';
import { createAccountService } from './account.service.ts';

const settingsResponses = {
  200: myProfileResponseSchema,
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  409: errorResponseSchema,
  429: errorResponseSchema,
};

/** The signed-in user's own account: settings changes and deletion. All refused to the demo user. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;
  const account = createAccountService({
    db: app.database.db,
    storage: app.storage,
    config,
    auth: createAuthService({
      db: app.database.db,
      accessTokens: app.accessTokens,
      keys: app.sessionKeys,
    }),
    emailChange: createEmailChangeService({ db: app.database.db, mail: app.mail, log: app.log }),
    liveUsers: app.liveUsers,
    log: app.log,
  });
  app.addHook('onRequest', requireAuth);
  const common = { tags: ['account'], security: [{ bearer: [] }] };

  app.put(
    '/profile/settings/username',
    {
      schema: {
        ...common,
        summary: 'Change the display name (current password required)',
        body: changeUsernameRequestSchema,
        response: settingsResponses,
      },
    },
    async (request) =>
      account.changeUsername(assertNotDemo(request), request.body, readDeviceCookie(request, config)),
  );

  app.put(
    '/profile/settings/email',
    {
      schema: {
        ...common,
        summary:
          'Change the email address (current password required): 202, a confirmation link goes to the new ' +
          'address and the change applies when it is followed (POST /api/email/confirm)',
        body: changeEmailRequestSchema,
        response: {
          202: emailChangeRequestedSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const requested = await account.changeEmail(
        assertNotDemo(request),
        request.body,
        readDeviceCookie(request, config),
        messageLanguage(request.headers['accept-language']),
      );
      return reply.code(202).send(requested);
    },
  );

  app.put(
    '/profile/settings/password',
    {
      schema: {
        ...common,
        summary: 'Change the password (current password required); ends every other session',
        body: changePasswordRequestSchema,
        response: settingsResponses,
      },
    },
    async (request) =>
      account.changePassword(
        assertNotDemo(request),
        request.body,
        readRefreshCookie(request, config),
        readDeviceCookie(request, config),
      ),
  );

  app.put(
    '/profile/settings/location-privacy',
    {
      schema: {
        ...common,
        summary: 'Publish exact coordinates of located posts, or only the approximate area',
        body: locationPrivacyRequestSchema,
        response: settingsResponses,
      },
    },
    async (request) => account.setLocationPrivacy(assertNotDemo(request), request.body.exactPublicLocation),
  );

  app.put(
    '/profile/settings/alt-text-reminder',
    {
      schema: {
        ...common,
        summary: 'Remind me on Spot to describe a photo shared without a description (on by default)',
        body: altTextReminderRequestSchema,
        response: settingsResponses,
      },
    },
    async (request) => account.setAltTextReminder(assertNotDemo(request), request.body.altTextReminder),
  );

  app.put(
    '/profile/settings/home-area',
    {
      schema: {
        ...common,
        summary:
          'Choose the area missing cats are shown and told around (kept as its ~500 m cell), or null to forget it',
        body: homeAreaRequestSchema,
        response: settingsResponses,
      },
    },
    async (request) => account.setHomeArea(assertNotDemo(request), request.body.homeArea),
  );

  app.delete(
    '/profile/deleteUser/:userId',
    {
      schema: {
        ...common,
        summary:
          'Delete the own account with all its posts, media, comments, likes, groups and sessions; ' +
          'needs `password` unless it was typed in this session in the last few minutes (403 otherwise)',
        params: z.object({ userId: z.string() }),
        body: deleteAccountRequestSchema,
        response: {
          204: z.null().describe('Deleted'),
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      await account.deleteAccount(
        assertNotDemo(request),
        request.params.userId,
        request.body?.password,
        readDeviceCookie(request, config),
      );
      clearRefreshCookie(reply, config);
      return reply.status(204).send(null);
    },
  );
};
