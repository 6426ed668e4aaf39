/**
 * Issue 26's cat loads (docs/performance.md, "Cats"): 'Which cat is this?' on Spot
 * (`GET /api/cats/suggestions?near=`) and the cats nearest a point (`GET /api/cats?near=`), each at the
 * feed's 50 connections with the budget, p99 < 50 ms, on both databases.
 *
 * The points asked about are where people spot cats: the places of recent sightings (the bench's cats
 * roam ~220 m around their territory's centre, bench/support/dataset.ts), four in five of them, and
 * points anywhere in the dataset's southern Spain, most of them with no cat near. A second suggestions
 * load asks only in the dense old town (a tenth of all cats in 12 km²), the worst case, for reference.
 * The list nearest first orders the cats that match by the place of their newest sighting the caller
 * may see; it reads them nearest first from cat_places' GiST index (cats-list.service.ts › nearestCats), and
 * is held to the same budget. bench/cats-near.ts measures it alone, in the denser town of
 * bench/missing-near.ts.
 *
 * Missing cats near me (`GET /api/cats/missing`, issue 26, the same budget) is measured by
 * bench/missing-near.ts on a town of its own: 2,000 open alerts, 500 of them in one city, which this
 * dataset does not have.
 */
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../apps/server/src/db/client.ts';
import type { CatSuggestionsResponse, CatsResponse } from '@cats/contracts';
import type { CpuReading } from './cpu.ts';
import { rowsOf } from './db.ts';
import { measure, pick, request, type LoadFigures } from './load.ts';
import type { Check, DatabaseKind } from './report.ts';
import { settle, type LoadPlan, type Viewer } from './scenarios.ts';

/** The budget for suggestions and missing cats near me, at 50 connections, on both databases. */
export const CAT_P99_BUDGET_MS = 50;

export interface Point {
  latitude: number;
  longitude: number;
}

export interface CatProbes {
  /** Places of sightings of the last 90 days, and points anywhere in southern Spain. */
  mixed: Point[];
  /** Places of recent sightings in the dense old town. */
  town: Point[];
}

/** A small deterministic generator (mulberry32), so every run asks about the same points. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Read from the seeded database before the server starts (the same points on both databases). */
export async function catProbes(database: DatabaseHandle): Promise<CatProbes> {
  const places = (where: string, limit: number) =>
    database.db
      .execute(
        sql.raw(`select latitude, longitude from posts
          where cat_id is not null and show_location and latitude is not null and deleted_at is null
            and created_at > now() - interval '90 days' and ${where}
          order by md5(id::text) limit ${limit}`),
      )
      .then((result) =>
        rowsOf<{ latitude: number; longitude: number }>(result).map((r) => ({
          latitude: Number(r.latitude),
          longitude: Number(r.longitude),
        })),
      );
  const sightings = await places('true', 400);
  const town = await places('latitude between 36.705 and 36.735 and longitude between -4.44 and -4.40', 200);
  const next = random(26);
  const anywhere = Array.from({ length: 100 }, () => ({
    latitude: 36.0 + next() * 2.5,
    longitude: -7.0 + next() * 5.0,
  }));
  return { mixed: [...sightings, ...anywhere], town };
}

export interface CatFigures {
  /**
   * Feed page 1 in the same run, for reference: on this shared machine a figure means something only
   * beside another measured at the same time.
   */
  feedReference: LoadFigures;
  suggestions: LoadFigures & { nonEmptyShare: number; meanCats: number };
  suggestionsTown: LoadFigures & { nonEmptyShare: number; meanCats: number };
  nearest: LoadFigures;
}

const near = (p: Point) => `near=${p.latitude.toFixed(6)},${p.longitude.toFixed(6)}`;

/** How many of the points get suggestions at all, and how many on average (asked once each). */
async function sampleAnswers(baseUrl: string, viewer: Viewer, points: Point[]) {
  let nonEmpty = 0;
  let total = 0;
  for (const p of points) {
    const res = await fetch(`${baseUrl}/api/cats/suggestions?${near(p)}`, {
      headers: { authorization: `Bearer ${viewer.token}` },
    });
    if (!res.ok) throw new Error(`suggestions at ${near(p)}: ${res.status} ${await res.text()}`);
    const { cats } = (await res.json()) as CatSuggestionsResponse;
    if (cats.length > 0) nonEmpty += 1;
    total += cats.length;
  }
  return {
    nonEmptyShare: Math.round((nonEmpty / Math.max(1, points.length)) * 100) / 100,
    meanCats: Math.round((total / Math.max(1, points.length)) * 10) / 10,
  };
}

export async function measureCats(
  baseUrl: string,
  viewers: Viewer[],
  plan: LoadPlan,
  probes: CatProbes,
  log: (line: string) => void,
  cpu?: () => CpuReading,
): Promise<CatFigures> {
  if (probes.mixed.length === 0 || probes.town.length === 0) throw new Error('the dataset has no cats');
  let current = viewers[0]!;
  const load = async (path: () => string) => {
    await settle(baseUrl);
    return measure({
      url: baseUrl,
      connections: plan.connections,
      durationS: plan.durationS,
      warmupS: plan.warmupS,
      cpu,
      requests: [
        request(
          'GET',
          () => {
            current = pick(viewers);
            return path();
          },
          () => ({ authorization: `Bearer ${current.token}` }),
        ),
      ],
    });
  };
  const show = (name: string, f: LoadFigures, extra = '') =>
    log(
      `${name.padEnd(26)} ${String(f.rps).padStart(6)} req/s  p50 ${f.p50Ms} ms  p99 ${f.p99Ms} ms  errors ${f.errors}` +
        (f.cpuPerRequest
          ? `  CPU/request ${f.cpuPerRequest.serverMs} ms server, ${f.cpuPerRequest.databaseMs} ms database`
          : '') +
        extra,
    );

  const feedReference = await load(() => '/api/feed/1');
  show('feed page 1 (reference)', feedReference);
  const mixedAnswers = await sampleAnswers(baseUrl, viewers[0]!, probes.mixed);
  const suggestions = {
    ...(await load(() => `/api/cats/suggestions?${near(pick(probes.mixed))}`)),
    ...mixedAnswers,
  };
  show(
    'cat suggestions',
    suggestions,
    `  (${Math.round(mixedAnswers.nonEmptyShare * 100)} % of points answered, ${mixedAnswers.meanCats} cats on average)`,
  );
  const townAnswers = await sampleAnswers(baseUrl, viewers[0]!, probes.town);
  const suggestionsTown = {
    ...(await load(() => `/api/cats/suggestions?${near(pick(probes.town))}`)),
    ...townAnswers,
  };
  show('cat suggestions, old town', suggestionsTown, `  (${townAnswers.meanCats} cats on average)`);
  // The list nearest first: its first page, as the post menus' 'Which cat is this?' dialog asks it.
  const sample = await fetch(`${baseUrl}/api/cats?${near(probes.mixed[0]!)}`, {
    headers: { authorization: `Bearer ${viewers[0]!.token}` },
  });
  if (!sample.ok || ((await sample.json()) as CatsResponse).cats.length === 0)
    throw new Error(`GET /api/cats?near= answered ${sample.status} or no cats`);
  const nearest = await load(() => `/api/cats?${near(pick(probes.mixed))}`);
  show('cats nearest first', nearest);
  // That list reads every cat (bench/support/cats.ts header): its backlog can outlast the load by many
  // seconds, and must not be charged to whatever the bench measures next.
  await drain(baseUrl, 120_000);
  return { feedReference, suggestions, suggestionsTown, nearest };
}

/** Waits until /api/health answers in under 50 ms again (up to `maxMs`). */
async function drain(baseUrl: string, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const started = performance.now();
    const ok = await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok && performance.now() - started < 50) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

const p99 = (f: LoadFigures): number | null => (f.requests > 0 ? f.p99Ms : null);

/** The budgets, on both databases: p99 < 50 ms at 50 connections, and no errors. */
export function catChecks(_kind: DatabaseKind, c: CatFigures): Check[] {
  const budget = (id: string, label: string, f: LoadFigures): Check => {
    const value = p99(f);
    return {
      id,
      label,
      value,
      unit: 'ms',
      budget: `< ${CAT_P99_BUDGET_MS} ms`,
      verdict: value !== null && value < CAT_P99_BUDGET_MS ? 'PASS' : 'FAIL',
    };
  };
  const errors = c.suggestions.errors + c.suggestionsTown.errors + c.nearest.errors;
  const feed = p99(c.feedReference);
  return [
    budget(
      'cats.suggestions.p99',
      `Cat suggestions, p99 at ${c.suggestions.connections} connections`,
      c.suggestions,
    ),
    {
      ...budget(
        'cats.suggestions.town.p99',
        'Cat suggestions in the dense old town (worst case), p99',
        c.suggestionsTown,
      ),
      budget: 'reference',
      verdict: 'info',
    },
    budget('cats.nearest.p99', `Cats nearest first (GET /api/cats?near=), p99`, c.nearest),
    {
      id: 'cats.feedReference.p99',
      label: 'Feed page 1 in the same run (reference), p99',
      value: feed,
      unit: 'ms',
      budget: 'reference',
      verdict: 'info',
    },
    {
      id: 'cats.errors',
      label: 'Errors and non-2xx answers of the cat loads',
      value: errors,
      unit: '',
      budget: '0',
      verdict: errors === 0 ? 'PASS' : 'FAIL',
    },
  ];
}
