import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../lib/leaflet-tiles.ts';
import { markerAlt, toViewport } from './viewport.ts';

const bounds = (west: number, south: number, east: number, north: number) => ({
  getWest: () => west,
  getSouth: () => south,
  getEast: () => east,
  getNorth: () => north,
});

describe('toViewport', () => {
  it('pads the visible bounds and rounds them', () => {
    expect(toViewport(bounds(-6, 36, -2, 38), 8.0000001)).toEqual({
      west: -7,
      south: 35.5,
      east: -1,
      north: 38.5,
      zoom: 8,
    });
  });
  it('stays within what the API accepts', () => {
    const v = toViewport(bounds(-500, -89, 500, 89), 3);
    expect(v.west).toBe(-540);
    expect(v.east).toBe(540);
    expect(v.south).toBe(-90);
    expect(v.north).toBe(90);
  });
});

describe('marker text', () => {
  it('names the cat or its photographer, escaped for HTML', () => {
    expect(markerAlt({ catName: 'Miso', username: 'ann' })).toBe('Photo of Miso');
    expect(markerAlt({ catName: null, username: 'ann' })).toBe('Cat photo by ann');
    expect(escapeHtml(`<b a="1">'&'</b>`)).toBe('&lt;b a=&quot;1&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;');
  });
});
