import { describe, expect, it, vi } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import { dateTimeFormat, messageFormatWarmers, sharedFormatters, warmFormatters } from './intl-formatters.ts';

describe('shared Intl formatters', () => {
  it('makes each formatter once per locale and options', () => {
    const day = dateTimeFormat('en-GB', { day: 'numeric', month: 'short' });
    expect(dateTimeFormat('en-GB', { day: 'numeric', month: 'short' })).toBe(day);
    expect(dateTimeFormat('es-ES', { day: 'numeric', month: 'short' })).not.toBe(day);
    expect(dateTimeFormat('en-GB', { day: 'numeric', month: 'long' })).not.toBe(day);
    expect(day.format(new Date(Date.UTC(2026, 10, 12, 12)))).toBe('12 Nov');
    expect(sharedFormatters.getPluralRules('es')).toBe(sharedFormatters.getPluralRules('es'));
    expect(sharedFormatters.getPluralRules('es', { type: 'ordinal' })).not.toBe(
      sharedFormatters.getPluralRules('es'),
    );
    expect(sharedFormatters.getNumberFormat('en')).toBe(sharedFormatters.getNumberFormat('en'));
  });

  it('keys an Intl.Locale by its tag, not as one shared key', () => {
    expect(sharedFormatters.getPluralRules(new Intl.Locale('en') as unknown as string)).not.toBe(
      sharedFormatters.getPluralRules(new Intl.Locale('ar') as unknown as string),
    );
  });

  it('formats plurals and numbers in messages that share them', () => {
    const options = { formatters: sharedFormatters };
    const en = new IntlMessageFormat(
      '{count, plural, one {# like} other {# likes}}',
      'en',
      undefined,
      options,
    );
    const es = new IntlMessageFormat(
      '{count, plural, one {# me gusta} other {# me gustas}}',
      'es',
      undefined,
      options,
    );
    expect(en.format({ count: 1 })).toBe('1 like');
    expect(en.format({ count: 1200 })).toBe('1,200 likes');
    expect(es.format({ count: 1 })).toBe('1 me gusta');
    expect(es.format({ count: 3 })).toBe('3 me gustas');
  });

  it('warms formatters one task each, in order, and the messages then use them', () => {
    vi.useFakeTimers();
    try {
      const made: string[] = [];
      warmFormatters([() => made.push('a'), () => made.push('b')]);
      expect(made).toEqual([]);
      vi.advanceTimersToNextTimer();
      expect(made).toEqual(['a']);
      vi.advanceTimersToNextTimer();
      expect(made).toEqual(['a', 'b']);
      const [number, plural] = messageFormatWarmers('es').map((make) => make());
      expect(sharedFormatters.getNumberFormat('es')).toBe(number);
      expect(sharedFormatters.getPluralRules('es', { type: 'cardinal' })).toBe(plural);
    } finally {
      vi.useRealTimers();
    }
  });
});
