/**
 * What each PGlite start-up setting costs in resident memory and in query time (docs/performance.md,
 * "PGlite settings").
 *
 * Each variant runs in a fresh child process (bench/pglite-memory-child.mjs) and reads VmRSS from
 * /proc/self/status after opening, after a full garbage collection, after a workload and after another
 * collection. Two workloads:
 * - default: a new data directory, the app's migrations, 20,000 posts written, 200 feed-like pages read;
 * - --dataset: a copy of the 100,000-post dataset a full `npm run bench` seeded, and the app's own feed
 *   query (page 1, page 200 by number, page 200 by cursor) timed 30 times each.
 *
 *   npx tsx bench/pglite-memory.ts [--dataset] [--repeat 2] [--only name,name]
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { drizzle } from 'drizzle-orm/node-postgres';
import { createHash } from 'node:crypto';
import * as schema from '../apps/server/src/db/schema/index.ts';
import { visiblePostsQuery } from '../apps/server/src/modules/posts/posts.repository.ts';
import { datasetTemplateDir } from './support/dataset.ts';
import { ROOT } from './support/paths.ts';

export interface MemoryVariant {
  name: string;
  /** Extra `-c name=value` settings after PGlite's own defaults. */
  settings: string[];
  /** V8 flags for the child (wasm compilation tiers). */
  nodeFlags?: string[];
}

export const VARIANTS: MemoryVariant[] = [
  { name: 'defaults', settings: [] },
  { name: 'shared_buffers=32MB', settings: ['shared_buffers=32MB'] },
  { name: 'shared_buffers=16MB', settings: ['shared_buffers=16MB'] },
  { name: 'shared_buffers=8MB', settings: ['shared_buffers=8MB'] },
  {
    name: 'sb=8MB maint=16MB temp=1MB',
    settings: ['shared_buffers=8MB', 'maintenance_work_mem=16MB', 'temp_buffers=1MB'],
  },
  { name: 'sb=8MB --liftoff-only', settings: ['shared_buffers=8MB'], nodeFlags: ['--liftoff-only'] },
  { name: 'sb=8MB --no-wasm-tier-up', settings: ['shared_buffers=8MB'], nodeFlags: ['--no-wasm-tier-up'] },
];

export interface MemoryResult {
  name: string;
  openMs: number;
  rssAfterOpenMb: number;
  /** After one full GC right after opening. */
  rssAfterOpenGcMb: number;
  rssAfterWorkMb: number;
  rssAfterGcMb: number;
  workMs: number;
  timings: Record<string, { p50: number; p90: number }>;
}

interface TimedQuery {
  name: string;
  sql: string;
  params: unknown[];
  repeat: number;
}

/** The app's feed query for bench user 1 (the SQL drizzle sends, with its parameters). */
function feedQueries(): TimedQuery[] {
  const hex = createHash('md5').update('bench-user-1').digest('hex');
  const viewer = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const mock = drizzle.mock({ schema });
  const query = (name: string, paging: Parameters<typeof visiblePostsQuery>[3]) => {
    const { sql, params } = visiblePostsQuery(mock as never, viewer, {}, paging).toSQL();
    return { name, sql, params, repeat: 30 };
  };
  return [
    query('page 1', { limit: 20, offset: 0 }),
    query('page 200', { limit: 20, offset: 3980 }),
    // Roughly where page 200 starts: one post every 315 s (bench/support/dataset.ts).
    query('page 200 by cursor', {
      limit: 20,
      cursor: {
        createdAt: new Date(Date.now() - 3980 * 315_000).toISOString().replace('Z', '000Z'),
        id: 'ffffffff-ffff-4fff-bfff-ffffffffffff',
      },
    }),
  ];
}

export async function measureVariant(variant: MemoryVariant, dataset: string | null): Promise<MemoryResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cats-pglite-mem-'));
  try {
    if (dataset) cpSync(dataset, join(dir, 'pglite'), { recursive: true });
    const child = spawn(
      process.execPath,
      ['--expose-gc', ...(variant.nodeFlags ?? []), join(ROOT, 'bench', 'pglite-memory-child.mjs')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          PGLITE_DIR: join(dir, 'pglite'),
          PGLITE_SETTINGS: JSON.stringify(variant.settings),
          ...(dataset ? { PGLITE_QUERIES: JSON.stringify(feedQueries()) } : {}),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`${variant.name}: child exited with ${code}\n${out}`);
    return {
      name: variant.name,
      ...(JSON.parse(out.trim().split('\n').at(-1)!) as Omit<MemoryResult, 'name'>),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      repeat: { type: 'string', default: '1' },
      only: { type: 'string' },
      dataset: { type: 'boolean', default: false },
    },
  });
  const only = values.only?.split(',');
  const variants = only ? VARIANTS.filter((v) => only.includes(v.name)) : VARIANTS;
  const dataset = values.dataset ? join(datasetTemplateDir('full'), 'pglite') : null;
  const rows: MemoryResult[] = [];
  for (let r = 0; r < Number(values.repeat); r += 1) {
    for (const variant of variants) {
      const result = await measureVariant(variant, dataset);
      rows.push(result);
      console.log(JSON.stringify(result));
    }
  }
  const names = Object.keys(rows[0]?.timings ?? {});
  console.log(
    `\n| variant | open ms | RSS after open | + GC | after work | + GC | work ms |${names.map((n) => ` ${n} p50 / p90 ms |`).join('')}`,
  );
  console.log(`|---|---:|---:|---:|---:|---:|---:|${names.map(() => '---:|').join('')}`);
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.openMs} | ${r.rssAfterOpenMb} MB | ${r.rssAfterOpenGcMb} MB | ${r.rssAfterWorkMb} MB | ` +
        `${r.rssAfterGcMb} MB | ${r.workMs} |${names.map((n) => ` ${r.timings[n]!.p50} / ${r.timings[n]!.p90} |`).join('')}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
