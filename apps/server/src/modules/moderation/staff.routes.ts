import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  setStaffRoleResponseSchema,
  setStaffRoleSchema,
  staffListResponseSchema,
  staffUserParamsSchema,
} from '@cats/contracts';
import { caller, requireAuth } from '../../plugins/auth.ts';
import * as staff from './staff.service.ts';
import { requireAdmin, requireModerator } from './staff-roles.ts';

const security = [{ bearer: [] }];
const tags = ['moderation'];

/** The moderation team (issue 27): moderators read it, admins grant and revoke moderators. */
export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);

  app.get(
    '/moderation/staff',
    {
      preHandler: requireModerator,
      schema: {
        tags,
        security,
        summary: 'Moderators and admins, admins first',
        response: { 200: staffListResponseSchema },
      },
    },
    async () => ({ staff: await staff.listStaff(app.database.db) }),
  );

  app.put(
    '/moderation/staff/:user',
    {
      preHandler: requireAdmin,
      schema: {
        tags,
        security,
        summary: 'Make a user a moderator, or a member again (admins only); `user` is an id or a username',
        params: staffUserParamsSchema,
        body: setStaffRoleSchema,
        response: { 200: setStaffRoleResponseSchema },
      },
    },
    async (request) => ({
      member: await staff.setModeratorRole(
        app.database.db,
        caller(request),
        request.params.user,
        request.body.role,
      ),
    }),
  );
};
