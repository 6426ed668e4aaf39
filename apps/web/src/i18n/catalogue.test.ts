// @vitest-environment node
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { extractMessages, readTranslations } from '../../i18n-plugin.ts';
import { LANGUAGES } from './languages.ts';

/** The names of the arguments and tags a message uses ('{count}', '<link>'), sorted. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const visit = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
      names.add(el.value);
      if (el.type === TYPE.tag) visit(el.children);
      if (el.type === TYPE.plural || el.type === TYPE.select)
        for (const option of Object.values(el.options)) visit(option.value);
    }
  };
  visit(parse(message));
  return [...names].sort();
}

/**
 * Issue 28: every message of the code (its English default) has a translation in every other
 * language, with the same arguments and tags, and no translation is left over from a message that no
 * longer exists. Translations live in src/i18n/<language>/*.json.
 */
describe('message catalogues', () => {
  it('translates every message of the code into every language, with the same arguments', async () => {
    const english = await extractMessages();
    expect(Object.keys(english).length).toBeGreaterThan(0);
    for (const language of LANGUAGES.filter((l) => l !== 'en')) {
      const { messages, fileOf } = readTranslations(language);
      const missing = Object.keys(english).filter((id) => !(id in messages));
      expect(missing, `${language}: not translated`).toEqual([]);
      const stale = Object.keys(messages).filter((id) => !(id in english));
      expect(
        stale.map((id) => `${fileOf[id]}: ${id}`),
        `${language}: no longer in the code`,
      ).toEqual([]);
      const mismatched = Object.entries(english)
        .filter(([id, { defaultMessage }]) => {
          const translation = messages[id];
          return (
            translation !== undefined &&
            argumentsOf(translation).join() !== argumentsOf(defaultMessage).join()
          );
        })
        .map(([id]) => `${fileOf[id]}: ${id}`);
      expect(mismatched, `${language}: arguments or tags differ from English`).toEqual([]);
      const empty = Object.entries(messages)
        .filter(([, m]) => m.trim() === '')
        .map(([id]) => id);
      expect(empty, `${language}: empty`).toEqual([]);
    }
  });

  it('parses every English text and every translation as an ICU message', async () => {
    const english = await extractMessages();
    for (const [id, { defaultMessage }] of Object.entries(english))
      expect(() => parse(defaultMessage), id).not.toThrow();
    for (const language of LANGUAGES.filter((l) => l !== 'en')) {
      for (const [id, message] of Object.entries(readTranslations(language).messages))
        expect(() => parse(message), `${language} ${id}`).not.toThrow();
    }
  });
});
