/**
 * `npm run bench`: seeds a realistic dataset into a fresh database, starts the production build
 * (apps/server/dist/server.js) as a child process and measures it; writes bench/results.json and
 * bench/results.md. PGlite by default; PostgreSQL when DATABASE_URL is set (a fresh database is created
 * next to the one it names, and dropped afterwards). How each figure is measured: docs/performance.md.
 *
 *   npm run bench                                  full dataset (1,000 users, 100,000 posts)
 *   DATABASE_URL=postgres://... npm run bench      the same on PostgreSQL
 *   npx tsx bench/run.ts --profile small --no-web  a quick run to debug the harness (no build)
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/client.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import {
  BENCH_PASSWORD,
  datasetTemplateDir,
  FULL_DATASET,
  SMALL_DATASET,
  seedDataset,
  type DatasetCounts,
  type DatasetSize,
} from './support/dataset.ts';
import { rowsOf } from './support/db.ts';
import { installMedia, prepareMedia } from './support/media.ts';
import { ROOT, WORK_DIR } from './support/paths.ts';
import {
  evaluate,
  machine,
  renderResultsFile,
  writeResults,
  type DatabaseKind,
  type RunResult,
  type WebFigures,
} from './support/report.ts';
import {
  checkPage200,
  measureHttp,
  measureUploads,
  prepareViewers,
  type LoadPlan,
} from './support/scenarios.ts';
import { cpuMeter } from './support/cpu.ts';
import { JEMALLOC, JEMALLOC_CONF, SERVER_ENTRY, rssMb, startBenchServer } from './support/server.ts';
import { startTileServer } from '../e2e/support/tiles.ts';
import { attachServerTimes } from './support/server-log.ts';

export interface Profile {
  name: string;
  dataset: DatasetSize;
  load: LoadPlan;
  viewers: number;
  uploads: { single: number; rounds: number; perRound: number; feedConnections: number };
  idleS: number;
  /**
   * Lighthouse runs per page; the median run's figures count. The same build on this shared 2-core
   * machine scores up to 10 points apart from one run to the next (docs/performance.md, "Web").
   */
  lighthouseRuns: number;
}

export const PROFILES: Record<string, Profile> = {
  full: {
    name: 'full',
    dataset: FULL_DATASET,
    load: { connections: 50, durationS: 10, warmupS: 3, repeats: 1 },
    viewers: 20,
    uploads: { single: 5, rounds: 2, perRound: 8, feedConnections: 50 },
    idleS: 30,
    lighthouseRuns: 3,
  },
  /** bench:ci: small dataset, short loads repeated three times (the median run counts). */
  ci: {
    name: 'ci',
    dataset: SMALL_DATASET,
    load: { connections: 50, durationS: 3, warmupS: 2, repeats: 3 },
    viewers: 10,
    uploads: { single: 3, rounds: 1, perRound: 8, feedConnections: 50 },
    idleS: 5,
    lighthouseRuns: 1,
  },
  /** For working on the harness itself. */
  small: {
    name: 'small',
    dataset: SMALL_DATASET,
    load: { connections: 50, durationS: 3, warmupS: 1, repeats: 1 },
    viewers: 5,
    uploads: { single: 2, rounds: 1, perRound: 8, feedConnections: 50 },
    idleS: 5,
    lighthouseRuns: 1,
  },
};

export interface BenchOptions {
  profile: Profile;
  databaseUrl?: string | undefined;
  web: boolean;
  keep?: boolean;
  /** PGlite only: start from a copy of the dataset seeded by an earlier run (for working on the harness). */
  reuseDataset?: boolean;
  logLevel?: string;
  /** Extra environment for the server (experiments: allocator settings, PGlite settings). */
  serverEnv?: Record<string, string>;
  /**
   * The server's memory allocator: jemalloc (preloaded with npm start's settings, as docs/performance.md
   * recommends for sharp on glibc systems) when the library is installed, else glibc's own.
   */
  allocator?: 'jemalloc' | 'glibc';
  log?: (line: string) => void;
}

/** A fresh PostgreSQL database beside the one DATABASE_URL names. */
export async function createPgDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cats_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function databaseVersion(database: DatabaseHandle): Promise<string> {
  const full = rowsOf<{ v: string }>(await database.db.execute(sql`select version() as v`))[0]!.v;
  return full.split(',')[0]!.replace(/ on .*/, '');
}

export async function runBench(opts: BenchOptions): Promise<RunResult> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const started = Date.now();
  const profile = opts.profile;
  const kind: DatabaseKind = opts.databaseUrl ? 'postgres' : 'pglite';
  const host = machine();
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run npm run build first`);

  const uploadsNeeded = 1 + profile.uploads.single + profile.uploads.rounds * profile.uploads.perRound;
  const media = await prepareMedia({ uploads: uploadsNeeded, log });

  const runDir = join(WORK_DIR, `run-${kind}-${Date.now()}`);
  mkdirSync(runDir, { recursive: true });
  const pgDatabase = opts.databaseUrl ? await createPgDatabase(opts.databaseUrl) : null;
  const tiles = await startTileServer();
  let server: Awaited<ReturnType<typeof startBenchServer>> | null = null;
  try {
    const template = datasetTemplateDir(profile.name);
    const reuse = !pgDatabase && opts.reuseDataset && existsSync(join(template, 'dataset.json'));
    if (reuse) {
      log(`reusing the dataset seeded earlier in ${template}`);
      cpSync(join(template, 'pglite'), join(runDir, 'pglite'), { recursive: true });
    } else {
      log(`seeding ${profile.dataset.posts.toLocaleString('en')} posts into a fresh ${kind} database`);
    }
    const database = await openDatabase({ databaseUrl: pgDatabase?.url, dataDir: runDir, poolSize: 2 });
    let version: string;
    let dataset: DatasetCounts;
    try {
      await database.migrate();
      dataset = reuse
        ? (JSON.parse(readFileSync(join(template, 'dataset.json'), 'utf8')) as DatasetCounts)
        : await seedDataset(database, profile.dataset, media, await hashPassword(BENCH_PASSWORD));
      version = await databaseVersion(database);
    } finally {
      await database.close();
    }
    if (!pgDatabase && !reuse) {
      rmSync(template, { recursive: true, force: true });
      cpSync(join(runDir, 'pglite'), join(template, 'pglite'), { recursive: true });
      writeFileSync(join(template, 'dataset.json'), JSON.stringify(dataset));
    }
    log(
      `seeded in ${(dataset.seedMs / 1000).toFixed(1)} s: ${dataset.posts} posts, ${dataset.likes} likes, ` +
        `${dataset.comments} comments, ${dataset.hiddenPosts} hides, ${dataset.blocks} blocks`,
    );
    installMedia(media, join(runDir, 'media'));

    const allocator = opts.allocator ?? (existsSync(JEMALLOC) ? 'jemalloc' : 'glibc');
    if (allocator === 'jemalloc' && !existsSync(JEMALLOC))
      throw new Error(`${JEMALLOC} is missing: apt-get install libjemalloc2`);
    const unlimited = '1000000';
    server = await startBenchServer(
      {
        DATA_DIR: runDir,
        ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}),
        JWT_SECRET: randomBytes(32).toString('hex'),
        SEED: 'false',
        LOG_LEVEL: opts.logLevel ?? 'info',
        MAP_TILE_URL: tiles.template,
        RATE_LIMIT_LOGIN_PER_MINUTE: unlimited,
        RATE_LIMIT_SIGNUP_PER_MINUTE: unlimited,
        RATE_LIMIT_WRITES_PER_MINUTE: unlimited,
        RATE_LIMIT_UPLOADS_PER_MINUTE: unlimited,
        ...(allocator === 'jemalloc' ? { LD_PRELOAD: JEMALLOC, MALLOC_CONF: JEMALLOC_CONF } : {}),
        ...opts.serverEnv,
      },
      join(runDir, 'server.log'),
    );
    log(
      `server ready in ${(server.startMs / 1000).toFixed(1)} s at ${server.url} (pid ${server.pid}, ${allocator})`,
    );
    await new Promise((r) => setTimeout(r, 2000));
    const afterStartMb = rssMb(server.pid);

    const viewers = await prepareViewers(server.url, profile.viewers, 3);
    const page200Consistent = await checkPage200(server.url, viewers[0]!);
    const http = await measureHttp(
      server.url,
      viewers,
      profile.load,
      log,
      cpuMeter(server.pid, !!pgDatabase),
    );
    const uploads = await measureUploads(
      server.url,
      server.pid,
      viewers,
      media.uploads,
      profile.uploads,
      log,
    );
    const afterLoadMb = rssMb(server.pid);
    attachServerTimes(join(runDir, 'server.log'), [...Object.values(http), uploads.concurrent.feedDuring]);
    log(`RSS after the load ${afterLoadMb} MB; idle for ${profile.idleS} s`);
    await new Promise((r) => setTimeout(r, profile.idleS * 1000));
    const idleMb = rssMb(server.pid);
    log(`RSS at idle ${idleMb} MB`);

    let web: WebFigures | undefined;
    if (opts.web) {
      const { measureWeb } = await import('../e2e/support/web-budgets.ts');
      try {
        web = await measureWeb({
          baseUrl: server.url,
          login: { email: `bench1@bench.test`, password: BENCH_PASSWORD },
          lighthouseRuns: profile.lighthouseRuns,
          log,
        });
      } catch (err) {
        // The server figures stay worth recording; the missing web figures fail their checks.
        log(`web measurements failed: ${err instanceof Error ? err.stack : String(err)}`);
        web = { landingJsGzipKb: NaN, landingJsFiles: [], mapLibraryOnlyOnExplore: false, lighthouse: {} };
      }
    }
    host.loadAverageAtEnd = loadavg().map((l) => Math.round(l * 100) / 100);
    const partial: Omit<RunResult, 'checks'> = {
      date: new Date().toISOString(),
      profile: profile.name,
      database: { kind, version },
      allocator,
      machine: host,
      dataset,
      durationS: Math.round((Date.now() - started) / 1000),
      serverStartMs: server.startMs,
      http,
      uploads,
      rss: { afterStartMb, afterLoadMb, idleMb, idleAfterS: profile.idleS },
      page200Consistent,
      ...(web ? { web } : {}),
    };
    return { ...partial, checks: evaluate(kind, partial) };
  } finally {
    await server?.stop();
    await tiles.close();
    if (opts.keep) log(`kept ${runDir}${pgDatabase ? ` and ${pgDatabase.url}` : ''}`);
    else {
      await pgDatabase?.drop();
      rmSync(runDir, { recursive: true, force: true });
    }
  }
}

/** `--server-env KEY=VALUE` options (repeatable) as an environment for the server. */
export function parseServerEnv(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`--server-env takes KEY=VALUE, got ${pair}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

async function main() {
  const { values } = parseArgs({
    options: {
      profile: { type: 'string', default: 'full' },
      'no-web': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      'reuse-dataset': { type: 'boolean', default: false },
      'log-level': { type: 'string' },
      out: { type: 'string', default: join(ROOT, 'bench') },
      allocator: { type: 'string' },
      /** Experiments: extra server environment, e.g. --server-env IMAGE_CONCURRENCY=1 (repeatable). */
      'server-env': { type: 'string', multiple: true, default: [] },
      /** Only rewrite results.md from results.json. */
      'render-only': { type: 'boolean', default: false },
    },
  });
  if (values['render-only']) {
    renderResultsFile(join(values.out, 'results.json'), join(values.out, 'results.md'));
    return;
  }
  const profile = PROFILES[values.profile];
  if (!profile) throw new Error(`unknown profile ${values.profile}: ${Object.keys(PROFILES).join(', ')}`);
  const result = await runBench({
    profile,
    databaseUrl: process.env.DATABASE_URL || undefined,
    web: !values['no-web'],
    keep: values.keep,
    reuseDataset: values['reuse-dataset'],
    ...(values.allocator ? { allocator: values.allocator as 'jemalloc' | 'glibc' } : {}),
    logLevel: values['log-level'],
    serverEnv: parseServerEnv(values['server-env']),
  });
  writeResults(join(values.out, 'results.json'), join(values.out, 'results.md'), result);
  console.log('');
  for (const c of result.checks) {
    console.log(`${c.verdict.padEnd(4)}  ${c.label}: ${c.value ?? '—'} ${c.unit} (budget ${c.budget})`);
  }
  console.log(`\nwrote ${join(values.out, 'results.md')} and results.json in ${result.durationS} s`);
  if (result.checks.some((c) => c.verdict === 'FAIL')) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
