import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LOCATION_GRID_DEGREES,
  approximateLocation,
  cellRunsWithCentreIn,
  columnsInRow,
  locationCell,
} from './location-grid.ts';

/** Metres along a parallel between two longitudes at this latitude (spherical Earth). */
const eastWestMetres = (latitude: number, west: number, east: number) =>
  ((east - west) * Math.PI * 6_371_000 * Math.cos((latitude * Math.PI) / 180)) / 180;

const cellWidthMetres = (cell: ReturnType<typeof locationCell>) =>
  eastWestMetres((cell.south + cell.north) / 2, cell.west, cell.east);

describe('the ~500 m location grid', () => {
  it('cuts every row into whole columns, so the cell at the antimeridian is as wide as the others', () => {
    // The first grid anchored columns at 0 degrees with a fixed width; at 51.5 N the last column before
    // 180 degrees was a sliver (12 m here), which placed a post there to within metres.
    for (const latitude of [0.0001, 12.3456, 36.72, 51.5, 64.1, 71.3, -33.9, -77.8]) {
      const last = locationCell(latitude, 179.99999);
      const first = locationCell(latitude, -179.99999);
      const middle = locationCell(latitude, 10.123);
      expect(last.east).toBe(180);
      expect(first.west).toBe(-180);
      // The centre answered for a post at the very end of the row lies mid-cell, ~250 m from the edge
      // (the first grid answered 180 itself, clamped, for a cell that ended metres away).
      const centre = approximateLocation(latitude, 179.99999);
      expect(eastWestMetres(latitude, centre.longitude, 180)).toBeGreaterThan(245);
      expect(eastWestMetres(latitude, centre.longitude, 180)).toBeLessThan(255);
      for (const cell of [last, first]) {
        expect(cellWidthMetres(cell)).toBeCloseTo(cellWidthMetres(middle), 3);
        expect(cellWidthMetres(cell)).toBeGreaterThan(495);
        expect(cellWidthMetres(cell)).toBeLessThan(505);
      }
    }
  });

  it('gives every cell a width of about 500 m away from the poles', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        (latitude, longitude) => {
          const cell = locationCell(latitude, longitude);
          const width = cellWidthMetres(cell);
          expect(width).toBeGreaterThan(480);
          expect(width).toBeLessThan(520);
          expect(cell.north - cell.south).toBeCloseTo(LOCATION_GRID_DEGREES, 12);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('puts each point inside its own cell and maps the whole cell to one centre', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -89.999, max: 89.999, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        (latitude, longitude, u, v) => {
          const cell = locationCell(latitude, longitude);
          expect(latitude).toBeGreaterThanOrEqual(cell.south - 1e-9);
          expect(latitude).toBeLessThanOrEqual(cell.north + 1e-9);
          expect(longitude).toBeGreaterThanOrEqual(cell.west - 1e-9);
          expect(longitude).toBeLessThanOrEqual(cell.east + 1e-9);
          // Another point of the same cell answers the same centre: averaging many posts reveals nothing.
          const other = approximateLocation(
            cell.south + u * (cell.north - cell.south),
            cell.west + v * (cell.east - cell.west),
          );
          expect(other).toEqual(cell.centre);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('stays within the globe at the poles and at both ends of a row', () => {
    for (const [lat, lng] of [
      [90, 180],
      [-90, -180],
      [89.9999, 179.9999],
      [-89.9999, -179.9999],
      [0, 0],
    ] as const) {
      const c = approximateLocation(lat, lng);
      expect(Math.abs(c.latitude)).toBeLessThan(90);
      expect(Math.abs(c.longitude)).toBeLessThan(180);
    }
    // Near the poles a column is at most one degree wide (360 columns), not thousands of kilometres.
    expect(columnsInRow(89.99775)).toBe(360);
  });

  it('reads a box by whole cells: a point is in its runs exactly when its cell centre is in the box', () => {
    // Issue 46: a statement that keeps the points of these runs decides by the cell alone.
    fc.assert(
      fc.property(
        fc.double({ min: -70, max: 70, noNaN: true }),
        fc.double({ min: -170, max: 170, noNaN: true }),
        fc.double({ min: 0.001, max: 0.011, noNaN: true }),
        fc.double({ min: 0.001, max: 0.016, noNaN: true }),
        fc.double({ min: -0.02, max: 0.02, noNaN: true }),
        fc.double({ min: -0.03, max: 0.03, noNaN: true }),
        (south, west, height, width, dLat, dLon) => {
          const box = { south, north: south + height, west, east: west + width };
          const runs = cellRunsWithCentreIn(box);
          expect(runs.length).toBeLessThanOrEqual(4);
          const p = { latitude: south + height / 2 + dLat, longitude: west + width / 2 + dLon };
          const { centre } = locationCell(p.latitude, p.longitude);
          const inRuns = runs.some(
            (r) =>
              p.latitude >= r.south && p.latitude < r.north && p.longitude >= r.west && p.longitude <= r.east,
          );
          const centreIn =
            centre.latitude >= box.south &&
            centre.latitude <= box.north &&
            centre.longitude >= box.west &&
            centre.longitude <= box.east;
          // Within a millionth of a degree of an edge the centre's rounding may tip it (~0.1 m).
          const near = (a: number, b: number) => Math.abs(a - b) < 2e-6;
          if ([box.south, box.north].some((e) => near(centre.latitude, e))) return;
          if ([box.west, box.east].some((e) => near(centre.longitude, e))) return;
          expect(inRuns).toBe(centreIn);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
