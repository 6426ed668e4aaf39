import { describe, expect, it } from 'vitest';
import { parseDecimal } from '@cats/contracts';
import { decimalText } from './create-post.ts';

describe('decimalText', () => {
  it('writes coordinates as plain decimals the server reads back to within 1 cm', () => {
    for (const value of [36.7391847, -4.4471931, 1e-7, -3e-8, 0, 100, 179.99999999, -90, 51.5]) {
      const text = decimalText(value);
      // String(1e-7) is '1e-7', which the server refuses as a coordinate.
      expect(text, String(value)).toMatch(/^-?\d+(\.\d+)?$/);
      expect(Math.abs(parseDecimal(text)! - value), text).toBeLessThan(1e-7);
    }
    expect(decimalText(100)).toBe('100');
    expect(decimalText(36.12)).toBe('36.12');
  });
});
