import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alreadyShowsMessage, suspendedMessage, tooManyAlertsTodayMessage } from '@cats/contracts';
import { collectEnglishMessages } from './english-messages.ts';
import { findEntry, localizeMessage, messageLanguage } from './localize.ts';
import { SERVER_MESSAGES_ES } from './server-messages.es.ts';
import * as serverModules from '../../test/server-message-modules.ts';

const SRC = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'seed' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** 5xx answers are the server's fault, not the person's: they stay in English (decision 017). */
const SERVER_FAULTS = new Set([
  'Service temporarily unavailable',
  'Internal Server Error',
  'Database unavailable',
]);

/** Texts written inline at a refusal rather than in an exported constant. */
function inlineRefusals(): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:badRequest|unauthorized|forbidden|notFound|conflict)\(\s*'([^']+)'/g,
    /new HttpError\(\s*4\d\d,\s*'([^']+)'/g,
    /sendMessage\([^,]+,[^,]+,\s*4\d\d,\s*'([^']+)'/g,
    /\?\?\s*'([A-Z][^']* [^']+)'/g,
  ];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const m of text.matchAll(pattern)) found.push(m[1]!);
  }
  // The 4xx texts of the error handler that are not constants.
  const handler = readFileSync(join(SRC, 'plugins/error-handler.ts'), 'utf8');
  for (const m of handler.matchAll(/[?:]\s*'([A-Z][^']+)'/g)) found.push(m[1]!);
  return found.filter((text) => !SERVER_FAULTS.has(text));
}

const english = collectEnglishMessages(Object.values(serverModules) as Record<string, unknown>[]);
const dynamic = [
  alreadyShowsMessage('Luna'),
  suspendedMessage(new Date(Date.UTC(2026, 2, 7, 9, 5))),
  tooManyAlertsTodayMessage(5),
  'Route GET /api/nope not found',
];

describe('the Spanish catalogue of server messages', () => {
  it('finds the English texts it is checked against (the walk over constants and zod schemas works)', () => {
    expect(english.size).toBeGreaterThan(150);
    expect(english).toContain('Comment cannot be empty'); // a zod schema's own message
    expect(english).toContain('Please check you have entered a valid user name.'); // a hint constant
    expect(inlineRefusals()).toContain('Send one image file');
  });

  it('has a Spanish entry for every English message', () => {
    const missing = [...english, ...inlineRefusals(), ...dynamic].filter((text) => !findEntry(text));
    expect(missing).toEqual([]);
  });

  it('has no entry left over from an English text that changed', () => {
    const known = [...english, ...inlineRefusals(), ...dynamic];
    const used = new Set(known.map((text) => findEntry(text)?.entry));
    const stale = Object.keys(SERVER_MESSAGES_ES).filter(
      (template) => !used.has(findEntry(exampleOf(template))?.entry),
    );
    expect(stale).toEqual([]);
  });

  it('lists every server module that exports messages', () => {
    const exported = new Set(Object.values(serverModules).flatMap((mod) => Object.keys(mod)));
    const declared = sourceFiles(SRC).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/export const (\w+_MESSAGES?) =/g)].map((m) => m[1]!),
    );
    expect(declared.filter((name) => !exported.has(name))).toEqual([]);
  });

  it('fills numbers with plurals and keeps names as they are', () => {
    expect(
      localizeMessage('You have sent 20 reports in the last hour. Please wait before sending more.', 'es')
        .message,
    ).toBe('Has enviado 20 denuncias en la última hora. Espera antes de enviar más.');
    expect(
      localizeMessage('You have sent 1 reports in the last hour. Please wait before sending more.', 'es')
        .message,
    ).toBe('Has enviado 1 denuncia en la última hora. Espera antes de enviar más.');
    expect(localizeMessage(alreadyShowsMessage('Bigotes {x}'), 'es').message).toBe(
      'Esta foto ya muestra a Bigotes {x}',
    );
    expect(localizeMessage(dynamic[1]!, 'es').message).toBe(
      'Tu cuenta está suspendida hasta el 7 de marzo de 2026 a las 09:05 (UTC).',
    );
  });

  it('answers English byte for byte, and leaves an unknown text as it is', () => {
    for (const text of english) expect(localizeMessage(text, 'en').message).toBe(text);
    expect(localizeMessage('Something new', 'es')).toEqual({ message: 'Something new', varies: false });
  });
});

describe('messageLanguage', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['es', 'es'],
    ['es-ES', 'es'],
    ['es-MX,es;q=0.9,en;q=0.8', 'es'],
    ['en-GB,en;q=0.9,es;q=0.8', 'en'],
    ['fr', 'en'],
    ['fr,es;q=0.5', 'es'],
    ['en;q=0.2,es;q=0.9', 'es'],
    ['es;q=0', 'en'],
    ['*', 'en'],
  ] as const)('%s -> %s', (header, language) => {
    expect(messageLanguage(header)).toBe(language);
  });
});

/** A text the template would produce, to tell which entry it is. */
function exampleOf(template: string): string {
  return template.replace(/\{(\w+)\}/g, '7');
}
