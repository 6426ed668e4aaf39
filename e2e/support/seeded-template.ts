import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory the real server seeded once; startServer copies it (see there). */
    seededDataDir?: string;
  }
}

/**
 * Global setup: the built server seeds one data directory (demo account, sample neighbourhood, its
 * photos rendered by the real pipeline) and stops cleanly. Each test server then starts from a copy
 * instead of rendering the same 40 images again: the first start's own seeding is still tested by
 * smoke.e2e.ts, which always starts from an empty directory.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  // The copy only saves time: a server without one seeds itself. CI's fault stage runs files whose
  // servers all start unseeded (seed: false) and asks for none (.ci/run): 20-30 s of seeding saved.
  if (process.env.E2E_SEEDED_TEMPLATE === 'off') return () => undefined;
  const dir = mkdtempSync(join(tmpdir(), 'cats-e2e-seeded-'));
  const server = await startServer({ dataDir: dir });
  const code = await server.stop();
  if (code !== 0) throw new Error(`seeding server exited with ${code}:\n${server.logs()}`);
  project.provide('seededDataDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
