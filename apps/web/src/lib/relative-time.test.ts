import { act } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { loadLanguage } from '../i18n/i18n-store.ts';
import { dateLocale, elapsedSince, formatRelativeDate } from './relative-time.ts';

const NOW = new Date('2026-11-25T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;
const label = (value: string) => formatRelativeDate(value, NOW, { timeZone: 'UTC' })?.label;

describe('formatRelativeDate', () => {
  it("says 'now' under a minute, and for a clock a little behind the server's", () => {
    expect(label(ago(0))).toBe('now');
    expect(label(ago(59_000))).toBe('now');
    expect(label(ago(-2 * MIN))).toBe('now');
  });

  it('counts minutes, hours and days, rounding down', () => {
    expect(label(ago(MIN))).toBe('1 min');
    expect(label(ago(5 * MIN + 59_000))).toBe('5 min');
    expect(label(ago(59 * MIN))).toBe('59 min');
    expect(label(ago(H))).toBe('1 h');
    expect(label(ago(3 * H + 20 * MIN))).toBe('3 h');
    expect(label(ago(23 * H + 59 * MIN))).toBe('23 h');
    expect(label(ago(D))).toBe('1 d');
    expect(label(ago(2 * D + 5 * H))).toBe('2 d');
    expect(label(ago(6 * D + 23 * H))).toBe('6 d');
  });

  it('gives the date after a week, with the year when it is another one', () => {
    expect(label(ago(7 * D))).toBe('18 Nov');
    expect(label('2026-01-02T08:00:00Z')).toBe('2 Jan');
    expect(label('2025-11-12T08:00:00Z')).toBe('12 Nov 2025');
    // Far in the future (a wrong clock somewhere): a date, not a negative count.
    expect(label('2027-03-01T08:00:00Z')).toBe('1 Mar 2027');
  });

  it('gives the exact time and the machine-readable value', () => {
    const formatted = formatRelativeDate('2025-11-12T08:05:00Z', NOW, { timeZone: 'UTC' });
    expect(formatted).toEqual({
      label: '12 Nov 2025',
      exact: '12 Nov 2025, 08:05',
      dateTime: '2025-11-12T08:05:00.000Z',
    });
    expect(formatRelativeDate(ago(3 * H), NOW, { timeZone: 'UTC' })?.exact).toBe('25 Nov 2026, 09:00');
  });

  it('follows the time zone for the calendar date', () => {
    // 23:30 UTC on 31 December is already the new year in Madrid.
    const value = '2025-12-31T23:30:00Z';
    const at = new Date('2026-02-01T12:00:00Z');
    expect(formatRelativeDate(value, at, { timeZone: 'UTC' })?.label).toBe('31 Dec 2025');
    expect(formatRelativeDate(value, at, { timeZone: 'Europe/Madrid' })?.label).toBe('1 Jan');
  });

  it('returns null for a value that is no date', () => {
    expect(formatRelativeDate('yesterday-ish', NOW)).toBeNull();
  });
});

describe('formatRelativeDate in Spanish', () => {
  afterEach(() => act(() => loadLanguage('en')));

  it('writes the counts and the dates in the current language', async () => {
    await act(() => loadLanguage('es'));
    expect(dateLocale()).toBe('es-ES');
    expect(label(ago(0))).toBe('ahora');
    expect(label(ago(5 * MIN))).toBe('5 min');
    expect(label(ago(3 * H))).toBe('3 h');
    expect(label(ago(2 * D))).toBe('2 d');
    expect(label('2025-11-12T08:00:00Z')).toBe('12 nov 2025');
    expect(formatRelativeDate('2025-11-12T08:05:00Z', NOW, { timeZone: 'UTC' })?.exact).toBe(
      '12 nov 2025, 8:05',
    );
  });
});

describe('elapsedSince', () => {
  const parts = (value: string) => elapsedSince(value, NOW, { timeZone: 'UTC' })?.elapsed;

  it('gives the unit and count the cards show, for sentences of their own', () => {
    expect(parts(ago(30_000))).toEqual({ unit: 'now' });
    expect(parts(ago(5 * MIN))).toEqual({ unit: 'minute', count: 5 });
    expect(parts(ago(3 * H + 20 * MIN))).toEqual({ unit: 'hour', count: 3 });
    expect(parts(ago(2 * D))).toEqual({ unit: 'day', count: 2 });
    expect(parts('2025-11-12T08:00:00Z')).toEqual({ unit: 'date', date: '12 Nov 2025' });
  });

  it('is null for a value that is not a date', () => {
    expect(elapsedSince('not a date', NOW)).toBeNull();
  });
});
