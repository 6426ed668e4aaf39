import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { LOAD_LIMITS } from './faults.ts';
import { startServer, type RunningServer } from './server.ts';
import { startTileServer, type TileServer } from './tiles.ts';

/**
 * One server (from the seeded copy) and one browser per test worker, for the files that need nothing
 * of their own (issue 52): starting them cost each file ~4 s of CPU, a sixth of the end-to-end stage.
 * Files in one worker run one after another (e2e/vitest.config.ts: `isolate: false` keeps this
 * module's state between them), so a file still has the server to itself while it runs; what it
 * leaves behind (its own users and posts) is there for the next file, which is why a file that
 * changes the sample content, the demo account or the server's settings starts its own
 * (startServer, launchBrowser) instead.
 *
 * The global setup (seeded-template.ts) stops whatever a worker left running when the run ends.
 */
let server: Promise<RunningServer> | undefined;
let browser: Promise<Browser> | undefined;
let tiles: Promise<TileServer> | undefined;

/** The worker's stand-in map tile server; the shared server's MAP_TILE_URL points at it. */
function sharedTiles(): Promise<TileServer> {
  tiles ??= startTileServer().catch((err: unknown) => {
    tiles = undefined;
    throw err;
  });
  return tiles;
}

/**
 * The worker's server. Its `stop` and `dispose` do nothing: the next file uses it too. Its settings are
 * what the files using it need: no request limits (every file's people come from one address, and
 * undo.e2e.ts writes fast), the stand-in tiles, push endpoints on 127.0.0.1 (push.e2e.ts' stand-in
 * push service) and PUBLIC_URL (post-page.e2e.ts' link previews).
 */
export function sharedServer(): Promise<RunningServer> {
  server ??= (async () => {
    const [map, root] = [await sharedTiles(), inject('sharedServersDir')];
    if (!root) throw new Error('no sharedServersDir: run the end-to-end tests through e2e/vitest.config.ts');
    const dataDir = mkdtempSync(join(root, 'data-'));
    const template = inject('seededDataDir');
    if (template) cpSync(template, dataDir, { recursive: true });
    const started = await startServer({
      dataDir,
      // Links in mails and link previews carry the server's own address.
      publicUrl: true,
      env: { ...LOAD_LIMITS, MAP_TILE_URL: map.template, PUSH_ENDPOINT_HOSTS: '127.0.0.1' },
    });
    // The global teardown reads these, should the worker end without its exit handler running.
    const pidFile = join(root, `${started.process.pid}.pid`);
    writeFileSync(pidFile, String(started.process.pid));
    process.once('exit', () => {
      started.process.kill('SIGKILL');
      rmSync(pidFile, { force: true });
    });
    return { ...started, stop: async () => null, dispose: async () => undefined };
  })().catch((err: unknown) => {
    server = undefined;
    throw err;
  });
  return server;
}

/**
 * The worker's browser. Its `close` closes the contexts the file opened and leaves the browser running
 * for the next file.
 */
export function sharedBrowser(): Promise<Browser> {
  browser ??= launchBrowser()
    .then(
      (real) =>
        new Proxy(real, {
          get(target, prop) {
            if (prop === 'close')
              return async () => {
                await Promise.all(target.contexts().map((c) => c.close().catch(() => undefined)));
              };
            const value: unknown = Reflect.get(target, prop, target);
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          },
        }),
    )
    .catch((err: unknown) => {
      browser = undefined;
      throw err;
    });
  return browser;
}

/** Both, as most files start them. */
export async function sharedServerAndBrowser(): Promise<[RunningServer, Browser]> {
  return Promise.all([sharedServer(), sharedBrowser()]);
}
