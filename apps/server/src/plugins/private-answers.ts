import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * What a signed-in caller is answered is theirs alone (their feed, who blocked whom, where their cats
 * are, tokens): no shared cache may keep it, and the browser may not write it to disk either, where
 * the next user of a shared computer would find it after logging out (issue 23).
 */
export const PRIVATE_ANSWER_CACHE_CONTROL = 'private, no-store';

/** onSend hook for routes whose every answer is private (the auth routes, which hand out tokens). */
export async function noStore(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  reply.header('cache-control', PRIVATE_ANSWER_CACHE_CONTROL);
  return payload;
}

/**
 * Every answer to a request requireAuth let through (success or error) is private; it overrides what
 * a route set. Media and the web app's files are fetched without a bearer token and keep their caching.
 */
export const privateAnswersPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.auth) reply.header('cache-control', PRIVATE_ANSWER_CACHE_CONTROL);
    return payload;
  });
});
