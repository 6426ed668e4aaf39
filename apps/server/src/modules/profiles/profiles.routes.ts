import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  myProfileResponseSchema,
  updatePictureResponseSchema,
  userProfileResponseSchema,
} from '@cats/contracts';
import { badRequest } from '../../lib/http-errors.ts';
import { assertNotDemo, caller, requireAuth } from '../../plugins/auth.ts';
import * as profiles from './profiles.service.ts';

const security = [{ bearer: [] }];

/** Spec section 6: the demo account may not change its picture. Refused before the upload is read. */
async function refuseDemo(request: FastifyRequest) {
  assertNotDemo(request);
}

/** Own and other users' profiles and the profile picture (issue 5 point 5). */
export const profilesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  const deps: profiles.ProfilesDeps = {
    db: app.database.db,
    storage: app.storage,
    publicBase: app.config.S3_PUBLIC_URL,
    log: app.log,
  };

  app.get(
    '/profile/getMyProfile',
    {
      schema: {
        tags: ['profiles'],
        security,
        summary: "The caller's own profile and account settings",
        response: { 200: myProfileResponseSchema },
      },
    },
    async (request) => profiles.getMyProfile(deps, caller(request)),
  );

  app.get(
    '/profile/getUserProfile/:userid',
    {
      schema: {
        tags: ['profiles'],
        security,
        summary:
          "Another user's profile: picture, how many of their pictures the caller can see, member since",
        params: z.object({ userid: z.string() }),
        response: { 200: userProfileResponseSchema },
      },
    },
    async (request) => profiles.getUserProfile(deps, caller(request), request.params.userid),
  );

  app.put(
    '/profile/updatePicture',
    {
      onRequest: refuseDemo,
      schema: {
        tags: ['profiles'],
        security,
        summary: 'Upload a new profile picture (multipart field "file", JPEG or PNG)',
        consumes: ['multipart/form-data'],
        response: { 200: updatePictureResponseSchema },
      },
    },
    async (request) => {
      const file = request.isMultipart() ? await request.file() : undefined;
      if (!file) throw badRequest(profiles.PROFILE_MESSAGES.noFile);
      const upload = await app.uploads.receive(file.file);
      try {
        if (upload.size === 0) throw badRequest(profiles.PROFILE_MESSAGES.noFile);
        return await profiles.updatePicture(deps, caller(request), upload);
      } finally {
        await app.uploads.discard(upload);
      }
    },
  );
};
