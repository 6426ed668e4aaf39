import { describe, expect, it } from 'vitest';
import { tokenFromHash } from './mail-link-token.ts';

describe('tokenFromHash', () => {
  const token = 'Ab0_-'.repeat(8) + 'xyz';
  it('reads the token of a mailed link from the fragment', () => {
    expect(token).toHaveLength(43);
    expect(tokenFromHash(`#token=${token}`)).toBe(token);
    expect(tokenFromHash(`token=${token}`)).toBe(token);
  });
  it('takes nothing else for a token', () => {
    expect(tokenFromHash('')).toBeNull();
    expect(tokenFromHash('#token=')).toBeNull();
    expect(tokenFromHash('#token=short')).toBeNull();
    expect(tokenFromHash(`#token=${token}x`)).toBeNull();
    expect(tokenFromHash(`#other=${token}`)).toBeNull();
  });
});
