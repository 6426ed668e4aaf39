/**
 * The short benchmark (`npm run bench:ci` runs it, then the bundle-size, axe and Lighthouse checks):
 * the `ci` profile (5,000 posts, every load once for 3 s after 2 s of warm-up), compared with
 * bench/baseline.json; .ci/run runs it. It fails on errors, or when a figure is
 * more than 50 % worse than its baseline AND past a generous absolute floor, in two runs one after the
 * other: two cores shared with other work make single figures noisy, and the floors and the confirming
 * run keep noise from failing the build. The notification streams' delivery and memory are held to
 * their own budgets (issue 25) in the same way.
 *
 *   npx tsx bench/ci.ts                   compare (PGlite; PostgreSQL with DATABASE_URL)
 *   npx tsx bench/ci.ts --write-baseline  record this machine's figures as the new baseline
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PROFILES, runBench } from './run.ts';
import { ROOT } from './support/paths.ts';
import type { DatabaseKind, RunResult } from './support/report.ts';

const BASELINE = join(ROOT, 'bench', 'baseline.json');
/** "More than 50 % worse": latency, time and memory 1.5 x higher, throughput below half. */
const TOLERANCE = 0.5;

interface Metric {
  name: string;
  better: 'lower' | 'higher';
  /** A regression only counts past this value (lower-is-better) or below it (higher-is-better). */
  floor: number;
  unit: string;
  read: (r: RunResult) => number;
}

/**
 * Latency as p90: in 3-second runs on PGlite a p99 is a handful of requests stuck behind start-up
 * queues (docs/performance.md), too noisy to compare; the p90 moves when the work per request does.
 */
export const METRICS: Metric[] = [
  { name: 'health req/s', better: 'higher', floor: 200, unit: 'req/s', read: (r) => r.http.health.rps },
  {
    name: 'feed page 1 req/s',
    better: 'higher',
    floor: 40,
    unit: 'req/s',
    read: (r) => r.http.feedPage1.rps,
  },
  { name: 'feed page 1 p90', better: 'lower', floor: 600, unit: 'ms', read: (r) => r.http.feedPage1.p90Ms },
  {
    name: 'feed page 200 p90',
    better: 'lower',
    floor: 800,
    unit: 'ms',
    read: (r) => r.http.feedPage200.p90Ms,
  },
  {
    name: 'feed page 200 (cursor) p90',
    better: 'lower',
    floor: 600,
    unit: 'ms',
    read: (r) => r.http.feedPage200Cursor.p90Ms,
  },
  { name: 'explore p90', better: 'lower', floor: 800, unit: 'ms', read: (r) => r.http.explore.p90Ms },
  { name: 'like p90', better: 'lower', floor: 600, unit: 'ms', read: (r) => r.http.likes.p90Ms },
  { name: 'comment p90', better: 'lower', floor: 600, unit: 'ms', read: (r) => r.http.comments.p90Ms },
  { name: 'upload median', better: 'lower', floor: 1500, unit: 'ms', read: (r) => r.uploads.singleMedianMs },
  {
    name: 'upload peak RSS',
    better: 'lower',
    floor: 700,
    unit: 'MB',
    read: (r) => r.uploads.concurrent.peakRssMb,
  },
  { name: 'idle RSS', better: 'lower', floor: 600, unit: 'MB', read: (r) => r.rss.idleMb },
];

/** The notification streams' checks (report.ts › notificationStreamChecks) that bench:ci holds to. */
const STREAM_CHECKS = ['streams.likeToEvent.p95', 'streams.likeToEvent.missed', 'streams.rss'];

type Baseline = Partial<
  Record<DatabaseKind, { recorded: string; machine: string; figures: Record<string, number> }>
>;

export function compare(
  result: RunResult,
  baseline: Record<string, number>,
): { lines: string[]; failures: string[] } {
  const lines: string[] = [];
  const failures: string[] = [];
  for (const m of METRICS) {
    const value = m.read(result);
    const base = baseline[m.name];
    let verdict = 'ok';
    if (base === undefined) verdict = 'no baseline';
    else if (m.better === 'lower' && value > base * (1 + TOLERANCE) && value > m.floor)
      verdict = 'REGRESSION';
    else if (m.better === 'higher' && value < base * (1 - TOLERANCE) && value < m.floor)
      verdict = 'REGRESSION';
    const line = `${verdict.padEnd(11)} ${m.name}: ${value} ${m.unit} (baseline ${base ?? '—'}, floor ${m.floor})`;
    lines.push(line);
    if (verdict === 'REGRESSION') failures.push(line);
  }
  // Issue 25's notification streams, measured in the same run, against their own budgets: these hold
  // with room on every machine we have had (the feed's p99 with the streams open, a load figure that
  // moves with the host, is left to the full benchmark).
  for (const id of STREAM_CHECKS) {
    const check = result.checks.find((c) => c.id === id);
    const verdict = !check ? 'NOT MEASURED' : check.verdict === 'FAIL' ? 'OVER BUDGET' : 'ok';
    const line = `${verdict.padEnd(11)} ${check?.label ?? id}: ${check?.value ?? '—'} ${check?.unit ?? ''} (budget ${check?.budget ?? '—'})`;
    lines.push(line);
    if (verdict !== 'ok') failures.push(line);
  }
  const errors = result.checks.find((c) => c.id === 'errors');
  if (errors && errors.value !== 0) failures.push(`errors: ${errors.value} failed or non-2xx requests`);
  if (!result.page200Consistent) failures.push('page 200 by number and by cursor list different posts');
  return { lines, failures };
}

const measureCi = () =>
  runBench({
    profile: PROFILES.ci!,
    databaseUrl: process.env.DATABASE_URL || undefined,
    web: false,
    logLevel: 'info',
  });

async function main() {
  const { values } = parseArgs({ options: { 'write-baseline': { type: 'boolean', default: false } } });
  const result = await measureCi();
  const kind = result.database.kind;
  const figures = Object.fromEntries(METRICS.map((m) => [m.name, m.read(result)]));
  const baseline: Baseline = existsSync(BASELINE)
    ? (JSON.parse(readFileSync(BASELINE, 'utf8')) as Baseline)
    : {};
  if (values['write-baseline']) {
    baseline[kind] = {
      recorded: result.date,
      machine: `${result.machine.cpu}, ${result.machine.cores} cores, load ${result.machine.loadAverageAtStart.join(' / ')}`,
      figures,
    };
    writeFileSync(BASELINE, `${JSON.stringify(baseline, null, 2)}\n`);
    console.log(`\nrecorded the ${kind} baseline in ${BASELINE}:`, figures);
    return;
  }
  const base = baseline[kind];
  if (!base)
    throw new Error(`bench/baseline.json has no ${kind} figures: run npx tsx bench/ci.ts --write-baseline`);
  const report = (run: RunResult, label: string) => {
    const { lines, failures } = compare(run, base.figures);
    console.log(
      `\nbench:ci on ${kind} (${label}), against the baseline of ${base.recorded} (${base.machine}):`,
    );
    for (const line of lines) console.log(`  ${line}`);
    return failures;
  };
  let failures = report(result, 'first run');
  if (failures.length > 0) {
    // Two shared cores make one run's figure an outlier now and then; a regression in the code shows
    // in a second run too. Only what fails twice fails the build.
    console.log(`\nfirst run over the line (${failures.join('; ')}): measuring once more to confirm`);
    failures = report(await measureCi(), 'confirming run');
  }
  if (failures.length > 0) {
    console.error(`\nbench:ci FAILED:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log(`\nbench:ci passed in ${result.durationS} s (first run)`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
