import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { IdleCollector } from '../lib/garbage.ts';

/** How long the server must have answered nothing before the embedded database is tidied. */
export const UPKEEP_DELAY_MS = 60_000;

/**
 * The embedded database's vacuum and analyse (db/embedded-upkeep.ts), once a minute after the last
 * answer: a quiet server tidies up after each busy spell, and a busy one is not held up by it. Only
 * for PGlite; PostgreSQL's autovacuum does the same by itself.
 */
export const embeddedUpkeepPlugin = fp(
  async (app: FastifyInstance, options: { delayMs?: number }) => {
    if (app.database.kind !== 'pglite') return;
    let running: Promise<void> | null = null;
    const run = async () => {
      const started = Date.now();
      try {
        const { vacuumed, analyzed } = await app.database.upkeep();
        if (analyzed.length > 0) {
          app.log.info({ vacuumed, analyzed, ms: Date.now() - started }, 'embedded database upkeep');
        }
      } catch (error) {
        app.log.warn({ err: error }, 'embedded database upkeep failed');
      }
    };
    const idle = new IdleCollector(options.delayMs ?? UPKEEP_DELAY_MS, () => {
      running ??= run().finally(() => {
        running = null;
      });
    });
    app.addHook('onResponse', async () => idle.touch());
    // Before the database closes: no new round, and the one under way finishes first.
    app.addHook('preClose', async () => {
      idle.stop();
      await running;
    });
  },
  { name: 'embedded-upkeep' },
);
