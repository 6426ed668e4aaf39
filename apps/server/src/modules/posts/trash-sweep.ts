import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { deleteExpiredKeys } from './idempotency-keys.repository.ts';
import { sweepTrash } from './trash.service.ts';
import { DAY_MS } from '../../lib/durations.ts';

export const TRASH_SWEEP_INTERVAL_MS = DAY_MS;

/**
 * Purges posts trashed over 30 days ago (trash.service.ts) and expired idempotency keys: once when the app is ready, then daily.
 * Several instances may sweep at once (each takes rows the others have not locked). The timer never
 * keeps the process alive, and closing the app stops it after the round under way.
 */
export const trashSweepPlugin = fp(
  async (app: FastifyInstance, options: { intervalMs?: number; sweep?: (now: Date) => Promise<number> }) => {
    // The same daily round drops createPost's expired idempotency keys (issue 28): lookups already
    // ignore them, so this only keeps the table small.
    const sweep =
      options.sweep ??
      (async (now: Date) => {
        const purged = await sweepTrash({ db: app.database.db, storage: app.storage, log: app.log }, now);
        await deleteExpiredKeys(app.database.db, now);
        return purged;
      });
    let running: Promise<void> | null = null;
    let timer: NodeJS.Timeout | null = null;
    let closing = false;
    const run = () => {
      if (closing) return;
      running ??= sweep(new Date())
        .then(() => {})
        .catch((err: unknown) => app.log.warn({ err }, 'trash sweep failed; the next round retries'))
        .finally(() => {
          running = null;
        });
    };
    app.addHook('onReady', async () => {
      run();
      timer = setInterval(run, options.intervalMs ?? TRASH_SWEEP_INTERVAL_MS);
      timer.unref();
    });
    // Before the database closes: no new round, and the one under way finishes first.
    app.addHook('preClose', async () => {
      closing = true;
      if (timer) clearInterval(timer);
      await running;
    });
  },
  { name: 'trash-sweep' },
);
