import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { sendMessage } from './error-handler.ts';

/**
 * A page of the web app whose HTML carries tags of its own (a post's link preview): `head` answers the
 * tags to put in <head>, already escaped, or null for the plain page.
 */
export interface HtmlPage {
  url: string;
  head(request: FastifyRequest): Promise<string | null>;
}

interface WebOptions {
  distDir: string | null;
  pages?: HtmlPage[];
}

/**
 * Serves the built web app. Hashed assets are cached forever; every other non-API path gets index.html
 * so the client router can show the page (or its 'Oops! Page Not Found').
 */
export const webPlugin = fp(async (app: FastifyInstance, opts: WebOptions) => {
  const distDir = opts.distDir && existsSync(opts.distDir) ? opts.distDir : null;
  if (distDir) {
    const indexHtml = readFileSync(join(distDir, 'index.html'), 'utf8');
    for (const page of opts.pages ?? []) {
      // Hidden from the OpenAPI document: an HTML page, not part of the API.
      app.get(page.url, { schema: { hide: true } }, async (request, reply) => {
        let head: string | null = null;
        try {
          head = await page.head(request);
        } catch (err) {
          // The tags are a nicety for link previews: the page itself still loads without them.
          request.log.warn({ err }, 'page head failed; serving the plain page');
        }
        return reply
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(head ? indexHtml.replace('</head>', `  ${head}\n  </head>`) : indexHtml);
      });
    }
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // The web build writes .br and .gz beside each text asset (apps/web/vite.config.ts): sent as is.
      preCompressed: true,
      // On the reply, not reply.raw: @fastify/static writes its own cache-control (max-age=0) on the
      // reply just before calling this, and that would win over a header set on the raw response.
      setHeaders(res, path) {
        res.header(
          'cache-control',
          path.includes('/assets/')
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=0, must-revalidate',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === '/api' || path.startsWith('/api/') || path.startsWith('/media/')) {
      return sendMessage(request, reply, 404, `Route ${request.method} ${path} not found`);
    }
    if ((request.method === 'GET' || request.method === 'HEAD') && distDir) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', distDir);
    }
    if (!distDir && request.method === 'GET') {
      return reply.status(503).type('text/plain').send('The web app is not built: run npm run build');
    }
    return sendMessage(request, reply, 404, 'Not found');
  });
});
