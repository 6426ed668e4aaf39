import { describe, expect, it } from 'vitest';
import {
  homeAreaRequestSchema,
  markMissingSchema,
  MISSING_MESSAGES,
  missingNearQuerySchema,
  missingNoteProblem,
  missingReportRequestSchema,
  missingTimeProblem,
} from './missing.ts';

const HOUR = 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const valid = {
  lastSeenAt: ago(2 * HOUR),
  place: { latitude: 36.72, longitude: -4.42 },
  note: '  Grey tabby, red collar.  ',
  contact: 'report',
};
const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('missing cats contracts', () => {
  it('takes a recent last-seen time, a place, a trimmed note and a contact preference', () => {
    const parsed = markMissingSchema.parse(valid);
    expect(parsed.note).toBe('Grey tabby, red collar.');
    expect(parsed.place).toEqual({ latitude: 36.72, longitude: -4.42 });
    // A time with an offset other than Z is read as the instant it names.
    const local = new Date(Date.now() - HOUR + 2 * HOUR).toISOString().replace('Z', '+02:00');
    expect(markMissingSchema.safeParse({ ...valid, lastSeenAt: local }).success).toBe(true);
    const ahead = new Date(Date.now() + HOUR + 2 * HOUR).toISOString().replace('Z', '+02:00');
    expect(messageOf(markMissingSchema.safeParse({ ...valid, lastSeenAt: ahead }))).toBe(
      MISSING_MESSAGES.lastSeenInFuture,
    );
    expect(markMissingSchema.safeParse({ ...valid, note: undefined }).success).toBe(true);
  });

  it('refuses a future time, one older than 30 days, and text that is not a time, each with its sentence', () => {
    expect(messageOf(markMissingSchema.safeParse({ ...valid, lastSeenAt: ago(-HOUR) }))).toBe(
      MISSING_MESSAGES.lastSeenInFuture,
    );
    expect(messageOf(markMissingSchema.safeParse({ ...valid, lastSeenAt: ago(31 * 24 * HOUR) }))).toBe(
      MISSING_MESSAGES.lastSeenTooOld,
    );
    for (const lastSeenAt of ['yesterday', '', '2026-13-01T00:00:00Z', 12]) {
      expect(messageOf(markMissingSchema.safeParse({ ...valid, lastSeenAt })), String(lastSeenAt)).toBe(
        MISSING_MESSAGES.lastSeenInvalid,
      );
    }
    // A clock a minute ahead of the server's is not "the future".
    expect(markMissingSchema.safeParse({ ...valid, lastSeenAt: ago(-60_000) }).success).toBe(true);
  });

  it('needs the place, in range, and a contact preference from the list', () => {
    const { place: _omitted, ...noPlace } = valid;
    expect(messageOf(markMissingSchema.safeParse(noPlace))).toBe(MISSING_MESSAGES.placeRequired);
    expect(markMissingSchema.safeParse({ ...valid, place: { latitude: 91, longitude: 0 } }).success).toBe(
      false,
    );
    expect(markMissingSchema.safeParse({ ...valid, place: { latitude: 1 } }).success).toBe(false);
    expect(messageOf(markMissingSchema.safeParse({ ...valid, contact: 'phone' }))).toBe(
      MISSING_MESSAGES.contactInvalid,
    );
    expect(messageOf(markMissingSchema.safeParse({ ...valid, note: 'x'.repeat(501) }))).toBe(
      MISSING_MESSAGES.noteTooLong,
    );
  });

  it('checks a report like an alert, without a contact preference', () => {
    expect(missingReportRequestSchema.safeParse({ seenAt: ago(HOUR), place: valid.place }).success).toBe(
      true,
    );
    expect(messageOf(missingReportRequestSchema.safeParse({ seenAt: ago(HOUR) }))).toBe(
      MISSING_MESSAGES.placeRequired,
    );
    expect(
      missingReportRequestSchema.safeParse({ seenAt: ago(HOUR), place: valid.place, note: 'a\u0000' })
        .success,
    ).toBe(false);
  });

  it('answers the forms with the same words as the schemas, without zod', () => {
    const now = Date.now();
    for (const at of [ago(HOUR), ago(-HOUR), ago(40 * 24 * HOUR), 'not a time']) {
      const parsed = markMissingSchema.shape.lastSeenAt.safeParse(at);
      expect(missingTimeProblem(new Date(at), now), at).toBe(parsed.success ? null : messageOf(parsed));
    }
    for (const note of ['', 'Shy.', 'x'.repeat(500), 'x'.repeat(501), 'bad\u0007']) {
      const parsed = markMissingSchema.shape.note.safeParse(note);
      expect(missingNoteProblem(note), JSON.stringify(note)).toBe(parsed.success ? null : messageOf(parsed));
    }
  });

  it('reads near like the cats list, and a home area or null', () => {
    expect(missingNearQuerySchema.parse({ near: '36.7,-4.4' }).near).toEqual({
      latitude: 36.7,
      longitude: -4.4,
    });
    expect(missingNearQuerySchema.safeParse({ near: '36.7' }).success).toBe(false);
    expect(homeAreaRequestSchema.parse({ homeArea: null })).toEqual({ homeArea: null });
    expect(homeAreaRequestSchema.safeParse({ homeArea: { latitude: 0, longitude: 200 } }).success).toBe(
      false,
    );
  });
});
