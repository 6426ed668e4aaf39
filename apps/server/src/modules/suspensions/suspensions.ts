import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { suspendedMessage } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { forbidden } from '../../lib/http-errors.ts';
import * as repo from './suspensions.repository.ts';

/**
 * Suspensions (issue 27, "Moderators"). A suspended account cannot log in or refresh its session (403
 * with a sentence saying until when), its access tokens stop working at once on every instance (the
 * auth plugin's account lookup asks that it be not suspended, and migration 0024 announces each
 * suspension on the channel of account deletions), and its posts and comments are hidden from everyone
 * else (author_suspended) until the suspension ends or a moderator lifts it.
 *
 * An ended suspension (suspended_until passed) no longer counts anywhere; the sweep below clears it and
 * shows the account's posts and comments again within a minute, and a login clears it at once.
 */

/** Whether the account is suspended at `now`, and until when (null: until lifted). */
export function activeSuspension(row: repo.Suspension, now: Date): { until: Date | null } | null {
  if (!row.suspendedAt) return null;
  if (row.suspendedUntil && row.suspendedUntil.getTime() <= now.getTime()) return null;
  return { until: row.suspendedUntil };
}

/** The 403 a suspended account's login or refresh gets. */
export const suspendedRefusal = (until: Date | null) => forbidden(suspendedMessage(until));

/**
 * At login, once the password is right: refuses a suspended account; lifts a suspension that has
 * ended (the sweep may not have come by yet), so that nobody whose suspension ended is ever refused.
 */
export async function refuseIfSuspended(db: Executor, userId: string, row: repo.Suspension, now: Date) {
  if (!row.suspendedAt) return;
  const active = activeSuspension(row, now);
  if (active) throw suspendedRefusal(active.until);
  await repo.liftEndedSuspensions(db, now, 1, userId);
}

/** Lifted per statement by the sweep. */
const SWEEP_BATCH = 500;

/** Lifts every suspension ended by `now`; returns how many. */
export async function sweepEndedSuspensions(db: Executor, now = new Date()): Promise<number> {
  let lifted = 0;
  for (;;) {
    const ids = await repo.liftEndedSuspensions(db, now, SWEEP_BATCH);
    lifted += ids.length;
    if (ids.length < SWEEP_BATCH) return lifted;
  }
}

export const SUSPENSION_SWEEP_INTERVAL_MS = 60 * 1000;

/**
 * Lifts ended suspensions once when the app is ready, then every minute (as trash-sweep.ts: several
 * instances may sweep at once; the timer never keeps the process alive; closing waits for the round).
 */
export const suspensionSweepPlugin = fp(
  async (app: FastifyInstance, options: { intervalMs?: number; sweep?: (now: Date) => Promise<number> }) => {
    const sweep = options.sweep ?? ((now: Date) => sweepEndedSuspensions(app.database.db, now));
    let running: Promise<void> | null = null;
    let timer: NodeJS.Timeout | null = null;
    let closing = false;
    const run = () => {
      if (closing) return;
      running ??= sweep(new Date())
        .then((lifted) => {
          if (lifted > 0) app.log.info({ lifted }, 'suspension sweep: lifted ended suspensions');
        })
        .catch((err: unknown) => app.log.warn({ err }, 'suspension sweep failed; the next round retries'))
        .finally(() => {
          running = null;
        });
    };
    app.addHook('onReady', async () => {
      run();
      timer = setInterval(run, options.intervalMs ?? SUSPENSION_SWEEP_INTERVAL_MS);
      timer.unref();
    });
    app.addHook('preClose', async () => {
      closing = true;
      if (timer) clearInterval(timer);
      await running;
    });
  },
  { name: 'suspension-sweep' },
);
