import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/** Origin of a URL or URL template such as https://{s}.tile.example/{z}/{x}/{y}.png, for the CSP. */
function originOf(template: string | undefined): string[] {
  if (!template) return [];
  const withoutPlaceholders = template.replace(/\{s\}\./, '*.').replace(/\{[a-z]+\}/g, '0');
  try {
    const url = new URL(withoutPlaceholders);
    return [`${url.protocol}//${url.host}`];
  } catch {
    return [];
  }
}

/**
 * The one inline script the web app has: apps/web/index.html's few lines that apply the colour scheme
 * chosen in Settings before the first paint (a separate file would cost a render-blocking request).
 * The CSP allows exactly that text by its SHA-256; security-headers.test.ts fails when the two differ.
 */
export const THEME_SCRIPT_HASH = "'sha256-YNRW6SWrn7MiyE9RnQqXoB3/6ybbsDtKeBXM0ZFgXtA='";

/**
 * Content-Security-Policy without inline scripts (but the theme script above, by its hash), no framing, no plugins; nosniff; a strict referrer
 * policy; HSTS only when the public URL is https (it would lock out plain-http development otherwise).
 *
 * helmet's middleware is built once, here. @fastify/helmet built it anew for every request (parsing the
 * CSP directives each time: 5 % of the server thread's time under the bench's loads); the headers are
 * the same, set by the same library, on every response.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  const https = app.config.PUBLIC_URL?.startsWith('https://') ?? false;
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", THEME_SCRIPT_HASH],
        // Leaflet positions tiles and markers with inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          ...originOf(app.config.MAP_TILE_URL),
          ...originOf(app.config.S3_PUBLIC_URL),
        ],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    // Media may be embedded by other sites' previews; it carries no metadata.
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
});
