import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isUnstorableText } from '../lib/db-errors.ts';
import { HttpError } from '../lib/http-errors.ts';
import { localizeMessage, messageLanguage } from '../i18n/localize.ts';

export const SERVICE_UNAVAILABLE_MESSAGE = 'Service temporarily unavailable, please try again';
export const UNSTORABLE_TEXT_MESSAGE = 'The text contains characters that are not allowed';
export const MALFORMED_MULTIPART_MESSAGE = 'Malformed multipart/form-data body';

/** The multipart parser (busboy) reports a body cut short or without its boundary with plain Errors. */
const MULTIPART_PARSE_ERROR = /unexpected end of multipart data|^Multipart: Boundary not found/i;

/**
 * Answers {message} with `status`. A refusal (4xx) is said in the language of Accept-Language when the
 * Spanish catalogue has it (docs/decisions/017); English stays the spec's text byte for byte. Such an
 * answer says `Vary: Accept-Language`, so no cache hands one person's language to another.
 */
export function sendMessage(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
  if (status >= 400 && status < 500) {
    const localized = localizeMessage(message, messageLanguage(request.headers['accept-language']));
    if (localized.varies) reply.header('vary', appendVary(reply.getHeader('vary'), 'Accept-Language'));
    return reply.status(status).send({ message: localized.message });
  }
  // A 5xx of ours stays in English: it is the operator's sentence as much as the user's.
  return reply.status(status).send({ message });
}

function appendVary(current: unknown, field: string): string {
  const existing = typeof current === 'string' ? current : Array.isArray(current) ? current.join(', ') : '';
  if (existing.split(',').some((f) => f.trim().toLowerCase() === field.toLowerCase() || f.trim() === '*')) {
    return existing;
  }
  return existing ? `${existing}, ${field}` : field;
}

/** Every error leaves as JSON {message} with the right status, and never with internals. */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      // A refusal is the client's business; a 5xx of ours (storage failed) belongs in the log with its cause.
      if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
      return sendMessage(request, reply.headers(error.headers), error.statusCode, error.message);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      return sendMessage(request, reply, 400, first?.message ?? 'Invalid request');
    }
    if (error.validation) {
      return sendMessage(request, reply, 400, error.message);
    }
    const status = error.statusCode ?? 500;
    if (status >= 500 && isDatabaseUnavailable(error)) {
      // The database is restarting or unreachable: answer at once and let the client retry.
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({ message: SERVICE_UNAVAILABLE_MESSAGE });
    }
    if (status >= 500 && MULTIPART_PARSE_ERROR.test(error.message)) {
      return sendMessage(request, reply, 400, MALFORMED_MULTIPART_MESSAGE);
    }
    if (status >= 500 && isUnstorableText(error)) {
      return sendMessage(request, reply, 400, UNSTORABLE_TEXT_MESSAGE);
    }
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.name === 'SyntaxError'
          ? 'Malformed JSON in request body'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.code === 'FST_REQ_FILE_TOO_LARGE'
            ? 'Request body is too large'
            : error.message;
      return sendMessage(request, reply, status, message);
    }
    request.log.error({ err: error }, 'unhandled error');
    if (status === 503) return reply.status(503).send({ message: 'Service temporarily unavailable' });
    return reply.status(500).send({ message: 'Internal Server Error' });
  });
});
