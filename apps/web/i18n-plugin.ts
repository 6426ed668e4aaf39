import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile, extract } from '@formatjs/cli-lib';
import { parse } from '@formatjs/icu-messageformat-parser';
import babel from '@rolldown/plugin-babel';
import type { Plugin, PluginOption } from 'vite';

/**
 * Messages (issue 28). In the code, a message is its id and its English text (src/i18n/message.tsx);
 * translations live in src/i18n/<language>/*.json, one file per part of the app (so that work on
 * different screens never edits the same file), as { id: ICU message }. This file is the build's side:
 * - `virtual:messages/<language>/<part>`: a language's files merged and parsed, in two chunks (below);
 * - `virtual:messages/pseudo`: every English text as pseudo-text (PSEUDO_LOCALE builds), so that a text
 *   that does not go through a message stands out in screenshots and tests;
 * - in production builds, every English text in the code is parsed at build time (babel-plugin-formatjs)
 *   and the browser gets intl-messageformat without its parser (about 6 KB gzipped less).
 */

const SRC = join(import.meta.dirname, 'src');

/**
 * A language's catalogue comes in two parts. `visitor`: the texts of the first screens anyone opens
 * (landing, login and sign-up, the app's frame, shared components), loaded before the first render.
 * `member`: everything else, loaded alongside a member screen's own code (app/router.tsx), so that a
 * Spanish visitor's landing page does not download the texts of every screen. By translation file:
 */
export const VISITOR_TRANSLATION_FILES = [
  'landing.json',
  'shell.json',
  'auth.json',
  'app.json',
  'common.json',
];
export type CataloguePart = 'visitor' | 'member';
const I18N = join(SRC, 'i18n');
const VIRTUAL = 'virtual:messages/';

/** The names that carry messages, for the extractor, the build's compiler and the lint rule alike. */
export const MESSAGE_COMPONENTS = ['Message'];
export const MESSAGE_FUNCTIONS = ['t', 'translate', 'translateParts'];

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });

/** Every source file that may hold messages (tests excluded). */
export function messageSources(): string[] {
  return walk(SRC).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.ts'));
}

/** Every message of the code: { id: { defaultMessage, description } }. Two texts under one id fail. */
export async function extractMessages(): Promise<
  Record<string, { defaultMessage: string; description?: string }>
> {
  const json = await extract(messageSources(), {
    additionalComponentNames: MESSAGE_COMPONENTS,
    additionalFunctionNames: MESSAGE_FUNCTIONS,
    throws: true,
    preserveWhitespace: true,
  });
  return JSON.parse(json) as Record<string, { defaultMessage: string; description?: string }>;
}

/** A language's translation files merged: { id: message }, with the file each id came from. */
export function readTranslations(
  language: string,
  part?: CataloguePart,
): {
  messages: Record<string, string>;
  fileOf: Record<string, string>;
} {
  const messages: Record<string, string> = {};
  const fileOf: Record<string, string> = {};
  const dir = join(I18N, language);
  const inPart = (name: string) =>
    part === undefined || VISITOR_TRANSLATION_FILES.includes(name) === (part === 'visitor');
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json') && inPart(n))
    .sort()) {
    const entries = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, string>;
    for (const [id, message] of Object.entries(entries)) {
      if (id in messages) throw new Error(`Message ${id} is translated twice: ${fileOf[id]} and ${name}`);
      messages[id] = message;
      fileOf[id] = name;
    }
  }
  return { messages, fileOf };
}

async function pseudoCatalogue(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'cats-pseudo-'));
  try {
    const file = join(dir, 'en.json');
    writeFileSync(file, JSON.stringify(await extractMessages()));
    return JSON.parse(await compile([file], { ast: true, pseudoLocale: 'en-XA' })) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function messagesModules(): Plugin {
  return {
    name: 'cats-messages',
    resolveId(id) {
      return id.startsWith(VIRTUAL) ? `\0${id}` : null;
    },
    async load(id) {
      if (!id.startsWith(`\0${VIRTUAL}`)) return null;
      // virtual:messages/<language>/<part>
      const [language = '', part] = id.slice(VIRTUAL.length + 1).split('/') as [string, CataloguePart];
      if (language === 'pseudo') return `export default ${JSON.stringify(await pseudoCatalogue())};`;
      const { messages, fileOf } = readTranslations(language, part);
      for (const name of new Set(Object.values(fileOf))) this.addWatchFile(join(I18N, language, name));
      const parsed = Object.fromEntries(
        Object.entries(messages).map(([key, message]) => [key, parse(message)]),
      );
      return `export default ${JSON.stringify(parsed)};`;
    },
  };
}

/**
 * The production build's part: English texts parsed in the code, and the parser left out of the
 * bundle (intl-messageformat then only formats what is already parsed).
 */
function compileMessagesInCode(): PluginOption[] {
  const require = createRequire(import.meta.url);
  // The parser version intl-messageformat itself depends on, wherever npm placed it.
  const noParser = createRequire(require.resolve('intl-messageformat')).resolve(
    '@formatjs/icu-messageformat-parser/no-parser.js',
  );
  return [
    {
      name: 'cats-messages-no-parser',
      enforce: 'pre',
      resolveId(id, importer) {
        // Only for the browser's formatter: the build's own tools (above) run in Node and parse.
        if (id === '@formatjs/icu-messageformat-parser' && importer?.includes('intl-messageformat'))
          return noParser;
        return null;
      },
    },
    babel({
      include: /\/src\/.*\.tsx?$/,
      plugins: [
        [
          'formatjs',
          {
            ast: true,
            additionalComponentNames: MESSAGE_COMPONENTS,
            additionalFunctionNames: MESSAGE_FUNCTIONS,
            preserveWhitespace: true,
          },
        ],
      ],
    }),
  ];
}

export function i18n(command: 'build' | 'serve'): PluginOption[] {
  return [messagesModules(), ...(command === 'build' ? compileMessagesInCode() : [])];
}
