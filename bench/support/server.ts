/** The production build as a child process, as an operator runs it, plus memory readings of it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './paths.ts';

export const SERVER_ENTRY = join(ROOT, 'apps', 'server', 'dist', 'server.js');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

/** Samples a process's RSS every `everyMs` until stopped; returns the peak and all samples. */
export function sampleRss(pid: number, everyMs = 100): { stop(): { peakMb: number; samples: number[] } } {
  const samples: number[] = [];
  const take = () => {
    try {
      samples.push(rssMb(pid));
    } catch {
      /* process gone */
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { peakMb: Math.max(...samples), samples };
    },
  };
}

export interface BenchServer {
  url: string;
  pid: number;
  child: ChildProcess;
  startMs: number;
  stop(): Promise<void>;
}

/** Debian's jemalloc (libjemalloc2), which scripts/start.sh (npm start) preloads when present. */
export const JEMALLOC = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
/** The jemalloc settings scripts/start.sh uses: freed pages go back within a second (docs/performance.md). */
export const JEMALLOC_CONF = 'background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0';

/** Starts apps/server/dist/server.js with the given environment and waits until /api/health answers. */
export async function startBenchServer(
  env: Record<string, string>,
  logFile: string,
  /** Extra node arguments (experiments: --cpu-prof, V8 flags). */
  nodeArgs: string[] = [],
): Promise<BenchServer> {
  const port = await freePort();
  const log = openSync(logFile, 'a');
  const started = Date.now();
  // Both databases run the server as npm start and docs/scaling.md do: no V8 flags. Until 2026-11-24
  // PostgreSQL runs added --max-semi-space-size=32; see docs/performance.md for why it went.
  const child = spawn(process.execPath, [...nodeArgs, SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      // Production drains 5 s on SIGTERM (issue 29) for a load balancer; the bench has none to wait for.
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...env,
    },
    // Straight to a file: the bench process spends no CPU relaying the server's log.
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(
        `server exited with ${child.exitCode}; see ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-3000)}`,
      );
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid!,
    child,
    startMs: Date.now() - started,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A one-load bench (data-export.ts, notifications.ts): the production build on `runDir` and the
 * seeded database, unseeded by the app, quiet, on jemalloc where the machine has it.
 */
export function startLoadServer(runDir: string, databaseUrl: string | undefined): Promise<BenchServer> {
  return startBenchServer(
    {
      DATA_DIR: runDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      JWT_SECRET: randomBytes(32).toString('hex'),
      SEED: 'false',
      LOG_LEVEL: 'warn',
      ...(existsSync(JEMALLOC) ? { LD_PRELOAD: JEMALLOC, MALLOC_CONF: JEMALLOC_CONF } : {}),
    },
    join(runDir, 'server.log'),
  );
}

/** Logs a bench user in through the API: the authorization header of their session. */
export async function benchLogin(
  baseUrl: string,
  email: string,
  password: string,
): Promise<{ authorization: string }> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login of ${email}: ${res.status} ${await res.text()}`);
  const { accessToken } = (await res.json()) as { accessToken: string };
  return { authorization: `Bearer ${accessToken}` };
}
