import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/build-app.ts';
import { THEME_SCRIPT_HASH } from './security-headers.ts';

const INDEX_HTML = fileURLToPath(new URL('../../../web/index.html', import.meta.url));

/** The inline scripts (no src attribute) of an HTML page, each as the browser hashes it. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
}

describe('the CSP and the web app’s inline theme script', () => {
  it('allows exactly the inline script index.html has, by its hash', () => {
    const scripts = inlineScripts(readFileSync(INDEX_HTML, 'utf8'));
    expect(scripts).toHaveLength(1);
    const hash = `'sha256-${createHash('sha256').update(scripts[0]!).digest('base64')}'`;
    expect(hash, 'update THEME_SCRIPT_HASH in security-headers.ts with this value').toBe(THEME_SCRIPT_HASH);
  });

  it('sends the hash in script-src and still no unsafe-inline', async () => {
    const t = await buildTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      const scriptSrc = String(res.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('script-src '));
      expect(scriptSrc).toBe(`script-src 'self' ${THEME_SCRIPT_HASH}`);
    } finally {
      await t.close();
    }
  });
});
