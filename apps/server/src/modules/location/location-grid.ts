// ---------------------------------------------------------------------------------------------------
// The ~500 m grid that everyone but the owner and the post's groups sees (issue 23, docs/security.md)
//
// Rows are 0.0045 degrees of latitude (~500 m everywhere). Each row is cut into a whole number of equal
// columns around the globe, as many as keep a column about 0.0045 / cos(row-centre latitude) degrees
// wide (~500 m), at most one degree wide near the poles. A whole number of columns means the row ends
// exactly at the antimeridian: no sliver of a cell at 180 degrees (the first grid, anchored at 0 degrees
// with a fixed width, left the last cell of a row as little as 12 m wide, which gave away the spot).
//
// The grid is fixed (not centred on the post, not randomised per request), so repeated requests or many
// posts from one home reveal nothing beyond the cell: every point of a cell maps to the same centre.
// ---------------------------------------------------------------------------------------------------

export const LOCATION_GRID_DEGREES = 0.0045;

/** Rows from the south pole: 180 / 0.0045 = 40,000. */
const ROWS = Math.round(180 / LOCATION_GRID_DEGREES);
const MAX_COLUMN_DEGREES = 1;

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

export interface LocationCell {
  south: number;
  north: number;
  west: number;
  east: number;
  /** The centre, rounded to 6 decimals (~0.1 m): what the API answers. */
  centre: { latitude: number; longitude: number };
}

/** How many columns the row whose centre is at this latitude has around the globe. */
export function columnsInRow(centreLatitude: number): number {
  const cos = Math.cos((centreLatitude * Math.PI) / 180);
  const width = Math.min(MAX_COLUMN_DEGREES, LOCATION_GRID_DEGREES / Math.max(cos, 1e-9));
  return Math.max(1, Math.round(360 / width));
}

/** Where a point's cell lies in the grid: its row from the south pole, its column and the row's columns. */
export interface CellIndex {
  row: number;
  column: number;
  columns: number;
}

/** The grid cell a point lies in, as indexes (migration 0040's location_cell_near computes the same). */
export function cellIndex(latitude: number, longitude: number): CellIndex {
  const row = Math.min(ROWS - 1, Math.max(0, Math.floor((latitude + 90) / LOCATION_GRID_DEGREES)));
  const south = -90 + row * LOCATION_GRID_DEGREES;
  const north = south + LOCATION_GRID_DEGREES;
  const columns = columnsInRow((south + north) / 2);
  const width = 360 / columns;
  const column = Math.min(columns - 1, Math.max(0, Math.floor((longitude + 180) / width)));
  return { row, column, columns };
}

/**
 * Whether cell `a` is cell `b` or one of its neighbours: a row apart at most, and overlapping, around
 * the globe, the span of `b`'s row from the column before `b` to the column after it. Rows have
 * different column counts, so the overlap is compared on whole numbers (fractions of the globe,
 * cross-multiplied): exact, with no rounding at shared edges. A function of the two cells alone, so
 * moving either point inside its cell never changes the answer (decision 022).
 */
export function cellsAdjacent(a: CellIndex, b: CellIndex): boolean {
  if (Math.abs(a.row - b.row) > 1) return false;
  for (const turn of [-1, 0, 1]) {
    const column = a.column + turn * a.columns;
    if (
      column * b.columns < (b.column + 2) * a.columns &&
      (column + 1) * b.columns > (b.column - 1) * a.columns
    ) {
      return true;
    }
  }
  return false;
}

/** The grid cell a point lies in; longitude 180 falls in the row's last column, which ends there. */
export function locationCell(latitude: number, longitude: number): LocationCell {
  const { row, column, columns } = cellIndex(latitude, longitude);
  const south = -90 + row * LOCATION_GRID_DEGREES;
  const north = south + LOCATION_GRID_DEGREES;
  const width = 360 / columns;
  const west = -180 + column * width;
  const east = column === columns - 1 ? 180 : west + width;
  return {
    south,
    north,
    west,
    east,
    centre: { latitude: round6((south + north) / 2), longitude: round6((west + east) / 2) },
  };
}

/** The centre of the point's cell: all that anyone but the owner and the post's groups may learn. */
export function approximateLocation(
  latitude: number,
  longitude: number,
): { latitude: number; longitude: number } {
  return locationCell(latitude, longitude).centre;
}

/** One grid row's run of whole cells: latitudes [south, north), longitudes [west, east]. */
export interface CellRun {
  south: number;
  north: number;
  west: number;
  east: number;
}

/**
 * The cells whose centres lie in the box (west <= east, within -180..180), as one run of whole cells per
 * grid row, south to north. A statement that reads "the points of these runs" decides for each point by
 * its cell alone, so its answer can tell a viewer who may see only cells nothing finer (issue 46): a
 * limit, a count or a yes/no over them is the same wherever in its cell a point lies.
 */
export function cellRunsWithCentreIn(box: {
  south: number;
  north: number;
  west: number;
  east: number;
}): CellRun[] {
  const first = Math.max(0, Math.ceil((box.south + 90) / LOCATION_GRID_DEGREES - 0.5));
  const last = Math.min(ROWS - 1, Math.floor((box.north + 90) / LOCATION_GRID_DEGREES - 0.5));
  const runs: CellRun[] = [];
  for (let row = first; row <= last; row += 1) {
    const south = -90 + row * LOCATION_GRID_DEGREES;
    const north = south + LOCATION_GRID_DEGREES;
    const columns = columnsInRow((south + north) / 2);
    const width = 360 / columns;
    const west = Math.max(0, Math.ceil((box.west + 180) / width - 0.5));
    const east = Math.min(columns - 1, Math.floor((box.east + 180) / width - 0.5));
    if (west > east) continue;
    runs.push({
      south,
      north,
      west: -180 + west * width,
      east: east === columns - 1 ? 180 : -180 + (east + 1) * width,
    });
  }
  return runs;
}
