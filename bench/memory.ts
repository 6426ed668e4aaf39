/**
 * Where the server's resident memory goes (docs/performance.md, "Memory"): starts the production build
 * on a copy of a seeded PGlite dataset (or on PostgreSQL with DATABASE_URL) under several environments
 * and reads VmRSS after start, after feed traffic, during and after bursts of 8 concurrent 12 MP
 * uploads, and after an idle period.
 *
 *   npx tsx bench/memory.ts [--profile small] [--variants default,arena2,...]
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { datasetTemplateDir } from './support/dataset.ts';
import { measure, pick, request } from './support/load.ts';
import { installMedia, prepareMedia } from './support/media.ts';
import { WORK_DIR } from './support/paths.ts';
import { measureUploads, prepareViewers } from './support/scenarios.ts';
import { JEMALLOC, JEMALLOC_CONF, rssMb, startBenchServer } from './support/server.ts';

export const MEMORY_VARIANTS: Record<string, Record<string, string>> = {
  default: {},
  /** glibc: at most two malloc arenas instead of eight per core (the usual advice for sharp). */
  arena2: { MALLOC_ARENA_MAX: '2' },
  /** glibc: large blocks always mmap'd (returned on free), no dynamic threshold growth. */
  mmap128k: { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' },
  /** jemalloc with its default decay (10 s, purged when allocations happen). */
  jemalloc: { LD_PRELOAD: JEMALLOC },
  /** jemalloc returning freed pages within a second, from its own background thread (npm start's). */
  jemallocQuickDecay: { LD_PRELOAD: JEMALLOC, MALLOC_CONF: JEMALLOC_CONF },
  /** npm start's jemalloc with V8's young generation at 32 or 64 MB a semi-space (docs/scaling.md). */
  jemallocQuickDecaySemi32: {
    LD_PRELOAD: JEMALLOC,
    MALLOC_CONF: JEMALLOC_CONF,
    NODE_OPTIONS: '--max-semi-space-size=32',
  },
  jemallocQuickDecaySemi64: {
    LD_PRELOAD: JEMALLOC,
    MALLOC_CONF: JEMALLOC_CONF,
    NODE_OPTIONS: '--max-semi-space-size=64',
  },
};

async function main() {
  const { values } = parseArgs({
    options: {
      profile: { type: 'string', default: 'small' },
      variants: { type: 'string', default: Object.keys(MEMORY_VARIANTS).join(',') },
      rounds: { type: 'string', default: '2' },
    },
  });
  const template = join(datasetTemplateDir(values.profile), 'pglite');
  if (!process.env.DATABASE_URL && !existsSync(template)) {
    throw new Error(`run npx tsx bench/run.ts --profile ${values.profile} --reuse-dataset --no-web first`);
  }
  const rounds = Number(values.rounds);
  const media = await prepareMedia({ uploads: 1 + rounds * 8 });
  const rows: string[] = [];
  for (const name of values.variants.split(',')) {
    const env = MEMORY_VARIANTS[name];
    if (!env) throw new Error(`unknown variant ${name}`);
    const runDir = join(WORK_DIR, `memory-${name}-${Date.now()}`);
    mkdirSync(runDir, { recursive: true });
    if (!process.env.DATABASE_URL) cpSync(template, join(runDir, 'pglite'), { recursive: true });
    installMedia(media, join(runDir, 'media'));
    // A server that fails to start leaves its directory behind otherwise.
    process.once('exit', () => rmSync(runDir, { recursive: true, force: true }));
    const server = await startBenchServer(
      {
        DATA_DIR: runDir,
        ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
        JWT_SECRET: randomBytes(32).toString('hex'),
        SEED: 'false',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_LOGIN_PER_MINUTE: '1000000',
        RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
        RATE_LIMIT_UPLOADS_PER_MINUTE: '1000000',
        ...env,
      },
      join(runDir, 'server.log'),
    );
    try {
      await new Promise((r) => setTimeout(r, 2000));
      const start = rssMb(server.pid);
      const viewers = await prepareViewers(server.url, 5, 1);
      let current = viewers[0]!;
      await measure({
        url: server.url,
        connections: 20,
        durationS: 10,
        requests: [
          request(
            'GET',
            () => {
              current = pick(viewers);
              return '/api/feed/1';
            },
            () => ({ authorization: `Bearer ${current.token}` }),
          ),
        ],
      });
      const afterFeed = rssMb(server.pid);
      const uploads = await measureUploads(
        server.url,
        server.pid,
        viewers,
        media.uploads,
        { single: 0, rounds, perRound: 8, feedConnections: 5 },
        () => undefined,
      );
      const afterUploads = rssMb(server.pid);
      await new Promise((r) => setTimeout(r, 20_000));
      const idle = rssMb(server.pid);
      const row = `| ${name} | ${start} | ${afterFeed} | ${uploads.concurrent.peakRssMb} | ${afterUploads} | ${idle} | ${uploads.concurrent.wallMs.join(', ')} |`;
      console.log(row);
      rows.push(row);
    } finally {
      await server.stop();
      rmSync(runDir, { recursive: true, force: true });
    }
  }
  console.log(
    '\n| variant | after start MB | after feed load | peak during uploads | after uploads | idle 20 s | burst wall ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const row of rows) console.log(row);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
