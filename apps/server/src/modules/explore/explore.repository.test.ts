import { describe, expect, it } from 'vitest';
import { parseLayerPage } from './explore.repository.ts';

describe('parseLayerPage', () => {
  it('reads every line of a page into a point, numbers as numbers', () => {
    const page = [
      'a1\tu1\t38.5\t-2.25\tposts/k1\t1700000000000',
      'a2\tu2\t-14.447519598454903\t22.60683810237714\tposts/k2\t1700000000123.5',
      'a3\tu1\t0\t0\tposts/ünïcode\t0',
    ].join('\n');
    expect(parseLayerPage(page)).toEqual([
      {
        id: 'a1',
        userId: 'u1',
        latitude: 38.5,
        longitude: -2.25,
        mediaKey: 'posts/k1',
        createdAt: 1_700_000_000_000,
      },
      {
        id: 'a2',
        userId: 'u2',
        latitude: -14.447519598454903,
        longitude: 22.60683810237714,
        mediaKey: 'posts/k2',
        createdAt: 1_700_000_000_123.5,
      },
      { id: 'a3', userId: 'u1', latitude: 0, longitude: 0, mediaKey: 'posts/ünïcode', createdAt: 0 },
    ]);
  });

  it('reads a page of one line', () => {
    expect(parseLayerPage('p\tu\t1\t2\tk\t3')).toEqual([
      { id: 'p', userId: 'u', latitude: 1, longitude: 2, mediaKey: 'k', createdAt: 3 },
    ]);
  });
});
