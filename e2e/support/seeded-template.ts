import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory the real server seeded once; startServer copies it (see there). */
    seededDataDir?: string;
    /** Where each worker's shared server keeps its data and its pid (shared.ts). */
    sharedServersDir?: string;
  }
}

/**
 * Global setup: the built server seeds one data directory (demo account, sample neighbourhood, its
 * photos rendered by the real pipeline) and stops cleanly. Each test server then starts from a copy
 * instead of rendering the same 40 images again: the first start's own seeding is still tested by
 * smoke.e2e.ts, which always starts from an empty directory.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const shared = mkdtempSync(join(tmpdir(), 'cats-e2e-shared-'));
  project.provide('sharedServersDir', shared);
  // A worker's shared server (shared.ts) is killed when the worker exits; should one outlive it, it
  // goes here. Whatever it held is a copy made for this run.
  const stopShared = () => {
    for (const name of readdirSync(shared).filter((n) => n.endsWith('.pid'))) {
      try {
        process.kill(Number(name.slice(0, -'.pid'.length)), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(shared, { recursive: true, force: true });
  };
  // The copy only saves time: a server without one seeds itself. CI's fault stage runs files whose
  // servers all start unseeded (seed: false) and asks for none (.ci/run): 20-30 s of seeding saved.
  if (process.env.E2E_SEEDED_TEMPLATE === 'off') return stopShared;
  const dir = mkdtempSync(join(tmpdir(), 'cats-e2e-seeded-'));
  const server = await startServer({ dataDir: dir });
  const code = await server.stop();
  if (code !== 0) throw new Error(`seeding server exited with ${code}:\n${server.logs()}`);
  project.provide('seededDataDir', dir);
  return () => {
    stopShared();
    rmSync(dir, { recursive: true, force: true });
  };
}
