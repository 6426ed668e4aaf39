import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '..', '..');
const SERVER_ENTRY = join(ROOT, 'apps', 'server', 'dist', 'server.js');

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The seeded data directory of the e2e project's global setup, when there is one. */
function seededTemplate(): string | undefined {
  try {
    return inject('seededDataDir');
  } catch {
    return undefined; // outside a test worker (the global setup itself)
  }
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  logs: () => string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<number | null>;
  /** Stop and remove the data directory. */
  dispose(): Promise<void>;
}

/**
 * Starts the built server (`npm run build` first) as a real process on a free port with its own
 * DATA_DIR, and waits until /api/health answers.
 */
export async function startServer(
  opts: {
    dataDir?: string;
    env?: Record<string, string>;
    seed?: boolean;
    /** Set PUBLIC_URL to the server's own address (link previews need it for absolute URLs). */
    publicUrl?: boolean;
  } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'cats-e2e-'));
  // A seeded server without a directory of its own starts from the global setup's seeded copy
  // (seeded-template.ts); seeding then finds everything present and adds nothing.
  const template = opts.dataDir || opts.seed === false ? undefined : seededTemplate();
  if (template) cpSync(template, dataDir, { recursive: true });
  let output = '';
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED: opts.seed === false ? 'false' : 'true',
      // No drain before a stop unless a test asks for one (shutdown.e2e.ts): stops stay quick.
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...(opts.publicUrl ? { PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () =>
    new Promise<number | null>((resolveExit) => {
      if (child.exitCode !== null) return resolveExit(child.exitCode);
      child.once('exit', (code) => resolveExit(code));
      child.kill('SIGTERM');
    });
  return {
    url,
    port,
    dataDir,
    process: child,
    logs: () => output,
    stop,
    dispose: async () => {
      await stop();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
