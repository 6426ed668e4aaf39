import { describe, expect, it } from 'vitest';
import { metresBetween } from '../visibility/cat-place.ts';
import { beyondInMetres } from './cats-list.service.ts';

/** GiST's `<->` on point(longitude, latitude): the distance on the plane of degrees. */
const planeDegrees = (a: { latitude: number; longitude: number }, b: typeof a) =>
  Math.hypot(a.latitude - b.latitude, a.longitude - b.longitude);

/**
 * The near list reads cats nearest first in degrees and stops once the unread ones must lie farther in
 * metres than its page reaches (cats-list.service.ts › placedNear). A wrong 'true' here would leave a near
 * cat out of the list; a wrong 'false' only costs another read.
 */
describe('beyondInMetres', () => {
  it('at the equator, a degree is ~111 km whichever way', () => {
    const near = { latitude: 0, longitude: 10 };
    expect(beyondInMetres(near, 0.0091, 1_000)).toBe(true);
    expect(beyondInMetres(near, 0.0089, 1_000)).toBe(false);
  });

  it('far north, a degree of longitude is shorter: a point farther in degrees may be nearer in metres', () => {
    const near = { latitude: 60, longitude: 10 };
    const east = { latitude: 60, longitude: 10.015 };
    // 0.015 degrees east at 60° north is ~835 m: within a kilometre, so not beyond it.
    expect(metresBetween(near, east)).toBeLessThan(1_000);
    expect(beyondInMetres(near, planeDegrees(near, east), 1_000)).toBe(false);
    expect(beyondInMetres(near, 0.019, 1_000)).toBe(true);
  });

  it('says nothing where a path could cross the 180th meridian or pass a pole', () => {
    // Across the meridian the longitudes jump: a point 300 degrees away on the plane is ~1 km away.
    const pacific = { latitude: 0, longitude: 179.995 };
    const across = { latitude: 0, longitude: -179.996 };
    expect(metresBetween(pacific, across)).toBeLessThan(1_500);
    expect(beyondInMetres(pacific, planeDegrees(pacific, across), 1_500)).toBe(false);
    expect(beyondInMetres({ latitude: 89.995, longitude: 0 }, 5, 1_000)).toBe(false);
    expect(beyondInMetres({ latitude: -89.995, longitude: 0 }, 5, 1_000)).toBe(false);
  });

  it('never says beyond for a point that lies within the distance (random points, every latitude)', () => {
    // A fixed sequence, so a failure repeats.
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let checked = 0;
    for (let i = 0; i < 20_000; i += 1) {
      const near = { latitude: random() * 178 - 89, longitude: random() * 360 - 180 };
      const spread = [0.01, 0.1, 1, 10][i % 4]!;
      const point = {
        latitude: Math.max(-90, Math.min(90, near.latitude + (random() * 2 - 1) * spread)),
        longitude: near.longitude + (random() * 2 - 1) * spread * 3,
      };
      if (point.longitude > 180 || point.longitude < -180) continue;
      const metres = metresBetween(near, point);
      for (const radius of [metres * 0.5, metres * 0.99, metres, metres * 1.01, metres * 2]) {
        if (beyondInMetres(near, planeDegrees(near, point), radius)) {
          expect(metres, JSON.stringify({ near, point, radius })).toBeGreaterThan(radius);
          checked += 1;
        }
      }
    }
    // Most points are decided: the bound is not vacuous.
    expect(checked).toBeGreaterThan(20_000);
  });
});
