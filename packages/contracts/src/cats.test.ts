import { describe, expect, it } from 'vitest';
import {
  CAT_MESSAGES,
  catDescriptionProblem,
  catNameProblem,
  catsQuerySchema,
  createCatSchema,
  updateCatSchema,
} from './cats.ts';

describe('cats contracts', () => {
  it('reads near as latitude,longitude and refuses anything else with one clear message', () => {
    expect(catsQuerySchema.parse({ near: '36.7213, -4.4214' }).near).toEqual({
      latitude: 36.7213,
      longitude: -4.4214,
    });
    for (const near of ['', '36.7', '36.7,', ',4', '91,0', '0,181', 'a,b', '1,2,3', 'NaN,0', 'Infinity,0']) {
      const result = catsQuerySchema.safeParse({ near });
      expect(result.success, near).toBe(false);
      expect(result.error?.issues[0]?.message, near).toBe(CAT_MESSAGES.nearInvalid);
    }
  });

  it('needs a name of 1 to 40 characters, trimmed, and knows only the listed coats', () => {
    expect(createCatSchema.parse({ name: '  Luna ' }).name).toBe('Luna');
    expect(createCatSchema.safeParse({ name: '   ' }).error?.issues[0]?.message).toBe('Name is required');
    expect(createCatSchema.safeParse({ name: 'x'.repeat(41) }).success).toBe(false);
    expect(createCatSchema.safeParse({ name: 'Luna', coatColours: ['ginger', 'tabby'] }).success).toBe(true);
    expect(createCatSchema.safeParse({ name: 'Luna', coatColours: ['purple'] }).success).toBe(false);
    expect(createCatSchema.safeParse({ name: 'Luna', description: 'x'.repeat(501) }).success).toBe(false);
    expect(createCatSchema.safeParse({ name: 'Lu\u0000na' }).success).toBe(false);
  });

  it('lets an update forget the home point, and refuses a half or out-of-range one', () => {
    expect(updateCatSchema.parse({ home: null }).home).toBeNull();
    expect(updateCatSchema.safeParse({ home: { latitude: 36.7 } }).success).toBe(false);
    expect(updateCatSchema.safeParse({ home: { latitude: 95, longitude: 0 } }).success).toBe(false);
    expect(updateCatSchema.parse({})).toEqual({});
  });

  it('answers the forms with the same words as the schemas, without zod', () => {
    for (const name of ['Luna', '  Luna ', '', '   ', 'x'.repeat(40), 'x'.repeat(41), 'Lu\u0007na']) {
      const parsed = createCatSchema.shape.name.safeParse(name);
      expect(catNameProblem(name), JSON.stringify(name)).toBe(
        parsed.success ? null : parsed.error.issues[0]!.message,
      );
    }
    for (const text of ['', 'Friendly.', 'x'.repeat(500), 'x'.repeat(501), 'bad\u0000']) {
      const parsed = updateCatSchema.shape.description.safeParse(text);
      expect(catDescriptionProblem(text), JSON.stringify(text)).toBe(
        parsed.success ? null : parsed.error.issues[0]!.message,
      );
    }
  });
});
