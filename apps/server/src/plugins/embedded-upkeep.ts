import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { IdleCollector } from '../lib/garbage.ts';

/** How long the server must have answered nothing before the embedded database is tidied. */
export const UPKEEP_DELAY_MS = 60_000;
/** A server that never falls quiet is tidied this long into each busy spell (autovacuum's naptime). */
export const UPKEEP_BUSY_INTERVAL_MS = 60_000;

/**
 * The embedded database's vacuum and analyse (db/embedded-upkeep.ts): a minute after the last answer,
 * so that a quiet server tidies up after each busy spell, and a minute into a spell that does not end.
 * Until 2026-11-28 only the first: a server under steady load never tidied, and 35 s of likes and
 * comments left Spot's cat suggestions needing 72 % more CPU until the next quiet minute
 * (docs/performance.md, "The embedded database tidied under load"). A round checks each table's
 * counters and vacuums or analyses only those due, one table per statement, so requests get their turn
 * in between. Only for PGlite; PostgreSQL's autovacuum does the same by itself.
 */
export const embeddedUpkeepPlugin = fp(
  async (app: FastifyInstance, options: { delayMs?: number; busyIntervalMs?: number }) => {
    if (app.database.kind !== 'pglite') return;
    const busyIntervalMs = options.busyIntervalMs ?? UPKEEP_BUSY_INTERVAL_MS;
    let running: Promise<void> | null = null;
    /** When the server first answered since the last round began: the busy spell's start. */
    let busySince: number | null = null;
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
    let stopped = false;
    const startRound = () => {
      if (stopped) return;
      busySince = null;
      running ??= run().finally(() => {
        running = null;
      });
    };
    const idle = new IdleCollector(options.delayMs ?? UPKEEP_DELAY_MS, startRound);
    app.addHook('onResponse', async () => {
      idle.touch();
      const now = Date.now();
      if (busySince === null) busySince = now;
      else if (now - busySince >= busyIntervalMs && !running) startRound();
    });
    // Before the database closes: no new round, and the one under way finishes first.
    app.addHook('preClose', async () => {
      stopped = true;
      idle.stop();
      await running;
    });
  },
  { name: 'embedded-upkeep' },
);
