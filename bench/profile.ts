/**
 * A CPU profile of the server under one load (docs/performance.md, "Profile"): starts the production
 * build with --cpu-prof on a copy of a seeded PGlite dataset (or PostgreSQL with DATABASE_URL), runs
 * the load, stops the server and prints the functions with the most self time, for the server's thread
 * and, on PGlite, for the database's.
 *
 *   npx tsx bench/profile.ts [--profile small] [--path /api/feed/1] [--seconds 15] [--connections 10]
 *     [--method PUT --body '{}']   (a write; ':post' in the path becomes one of the viewer's feed posts)
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { datasetTemplateDir } from './support/dataset.ts';
import { measure, pick, request } from './support/load.ts';
import { installMedia, prepareMedia } from './support/media.ts';
import { WORK_DIR } from './support/paths.ts';
import { prepareViewers } from './support/scenarios.ts';
import { startBenchServer } from './support/server.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** Self time per function (and per file), from a .cpuprofile. */
export function summarise(path: string, top = 30): string[] {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    if (!node) return;
    const url = node.callFrame.url.replace(/^file:\/\//, '');
    const where = url.includes('node_modules/')
      ? url
          .split('node_modules/')
          .at(-1)!
          .split('/')
          .slice(0, url.split('node_modules/').at(-1)!.startsWith('@') ? 2 : 1)
          .join('/')
      : url.includes('/dist/server.js')
        ? 'app (dist/server.js)'
        : url || `(${node.callFrame.functionName || 'native'})`;
    const key = `${node.callFrame.functionName || '(anonymous)'}  ${where}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    byPackage.set(where, (byPackage.get(where) ?? 0) + dt);
  });
  const pct = (v: number) => `${((v / total) * 100).toFixed(1).padStart(5)} %`;
  return [
    `total ${(total / 1e6).toFixed(1)} s of samples`,
    '',
    'self time by package / file:',
    ...[...byPackage]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([k, v]) => `${pct(v)}  ${k}`),
    '',
    'self time by function:',
    ...[...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${pct(v)}  ${k}`),
  ];
}

async function main() {
  const { values } = parseArgs({
    options: {
      profile: { type: 'string', default: 'small' },
      path: { type: 'string', default: '/api/feed/1' },
      seconds: { type: 'string', default: '15' },
      connections: { type: 'string', default: '10' },
      method: { type: 'string', default: 'GET' },
      body: { type: 'string' },
      /** Extra flags for the server's node, e.g. --node-arg=--max-semi-space-size=32 */
      'node-arg': { type: 'string', multiple: true, default: [] },
    },
  });
  const runDir = join(WORK_DIR, `profile-${Date.now()}`);
  mkdirSync(runDir, { recursive: true });
  if (!process.env.DATABASE_URL) {
    const template = join(datasetTemplateDir(values.profile), 'pglite');
    if (!existsSync(template))
      throw new Error(`seed first: npx tsx bench/run.ts --profile ${values.profile} --reuse-dataset`);
    cpSync(template, join(runDir, 'pglite'), { recursive: true });
  }
  installMedia(await prepareMedia({ uploads: 0 }), join(runDir, 'media'));
  const server = await startBenchServer(
    {
      DATA_DIR: runDir,
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      JWT_SECRET: randomBytes(32).toString('hex'),
      SEED: 'false',
      RATE_LIMIT_LOGIN_PER_MINUTE: '1000000',
      RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
    },
    join(runDir, 'server.log'),
    ['--cpu-prof', `--cpu-prof-dir=${join(runDir, 'prof')}`, ...values['node-arg']],
  );
  try {
    const viewers = await prepareViewers(server.url, 5, 1);
    let current = viewers[0]!;
    const figures = await measure({
      url: server.url,
      connections: Number(values.connections),
      durationS: Number(values.seconds),
      warmupS: 3,
      requests: [
        request(
          values.method,
          () => {
            current = pick(viewers);
            return values.path.replace(':post', pick(current.postIds));
          },
          () => ({ authorization: `Bearer ${current.token}` }),
          values.body === undefined ? undefined : () => values.body!,
        ),
      ],
    });
    console.log(`${values.path}: ${figures.rps} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms`);
  } finally {
    await server.stop();
  }
  // One profile per thread, named CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: thread 0 is the
  // server's, the next one PGlite's (db/pglite-worker.ts) when the database is embedded.
  const files = readdirSync(join(runDir, 'prof'))
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort((a, b) => Number(a.split('.')[4]) - Number(b.split('.')[4]));
  if (files.length === 0) throw new Error('no profile written');
  files.forEach((file, i) => {
    console.log(`\n${i === 0 ? 'server thread' : 'database thread'}: ${join(runDir, 'prof', file)}\n`);
    console.log(summarise(join(runDir, 'prof', file)).join('\n'));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
