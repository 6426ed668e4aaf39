import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MEDIA_KEY_PATTERN } from '../../media/storage.ts';
import { sendMessage } from '../../plugins/error-handler.ts';

export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * GET /media/<kind>/<prefix>/<width>.webp: image variants from storage (local disk or S3). Each key is
 * written once, so a URL's bytes never change and may be cached for a year. Only keys of our own
 * shape reach the storage, which rules out path traversal.
 */
export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/media/*', { schema: { hide: true } }, async (request, reply) => {
    const key = (request.params as { '*'?: string })['*'] ?? '';
    if (!MEDIA_KEY_PATTERN.test(key)) return sendMessage(request, reply, 404, 'Not found');
    const etag = `"${key.replaceAll('/', '-')}"`;
    reply.header('cache-control', MEDIA_CACHE_CONTROL).header('etag', etag);
    // Written once: a client holding this ETag holds these exact bytes.
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    const object = await app.storage.get(key);
    if (!object) {
      reply.removeHeader('cache-control').removeHeader('etag');
      return sendMessage(request, reply, 404, 'Not found');
    }
    reply.header('x-content-type-options', 'nosniff').type(object.contentType);
    if (object.size !== undefined) reply.header('content-length', object.size);
    return reply.send(object.body);
  });
};
