import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectGarbage, IdleCollector } from '../lib/garbage.ts';

/** How long the server must have answered nothing before it collects. */
export const IDLE_GC_DELAY_MS = 5_000;

/**
 * A full garbage collection, on this thread and on the database's, once the server has been quiet for
 * a few seconds. Without it a burst of traffic leaves 80–150 MB of garbage resident until the next
 * request (docs/performance.md, "Memory"). A request that arrives during the pause waits for it (tens of
 * milliseconds, once per quiet spell).
 */
export const idleGcPlugin = fp(
  async (app: FastifyInstance, options: { delayMs?: number }) => {
    const collector = new IdleCollector(options.delayMs ?? IDLE_GC_DELAY_MS, () => {
      collectGarbage();
      app.database.collectGarbage().catch((error: unknown) => app.log.warn({ err: error }, 'idle GC failed'));
    });
    app.addHook('onResponse', async () => collector.touch());
    // From the start of shutdown: it waits for requests in flight, and the database closes meanwhile.
    app.addHook('preClose', async () => collector.stop());
  },
  { name: 'idle-gc' },
);
