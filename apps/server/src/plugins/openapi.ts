import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * Upload routes read their multipart body themselves, so they declare no body schema; without one the
 * document would show no request body at all. Describe the file part (documentation only: never used
 * for validation), so clients and the hostile-input suite see these routes as uploads.
 */
function documentUploads(input: TransformInput) {
  const out = jsonSchemaTransform(input);
  const consumes = (input.schema as { consumes?: string[] } | undefined)?.consumes ?? [];
  if (consumes.includes('multipart/form-data') && !out.schema?.body) {
    out.schema = {
      ...out.schema,
      body: {
        type: 'object',
        properties: { file: { type: 'string', format: 'binary', description: 'JPEG or PNG image' } },
        required: ['file'],
      },
    };
  }
  return out;
}

/** The OpenAPI document is generated from the zod route schemas (contracts package), never written by hand. */
export const openApiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Neighbourhood Cats API',
        version: '1.0.0',
        description:
          'Share photos of the cats in your street.\n\n' +
          'The `message` of a 4xx answer follows `Accept-Language`: Spanish for `es` (and `es-ES`, with ' +
          'q-values), otherwise the English texts of the spec, unchanged. Such answers carry ' +
          '`Vary: Accept-Language`. Other fields and 2xx answers are the same in every language.',
      },
      components: {
        // Documentation of the header every route reads for {message}; routes do not validate it.
        parameters: {
          AcceptLanguage: {
            name: 'Accept-Language',
            in: 'header',
            required: false,
            description: 'Language of `message` in 4xx answers: `es` or English (the default).',
            schema: { type: 'string', example: 'es-ES,es;q=0.9,en;q=0.8' },
          },
        },
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // EventSource sends no headers: the notification stream takes a short-lived ticket instead.
          streamTicket: { type: 'apiKey', in: 'query', name: 'ticket' },
        },
      },
    },
    transform: documentUploads,
  });
  // staticCSP adds the hashes Swagger UI's own page needs to our strict policy, for that page only.
  // Off in production unless API_DOCS=true (config.ts): /api/docs then answers the usual 404.
  if (app.config.API_DOCS) await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
