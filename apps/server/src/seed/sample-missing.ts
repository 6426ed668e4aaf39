import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { MISSING_ALERT_DAYS } from '@cats/contracts';
import type { Database } from '../db/client.ts';
import { missingAlerts } from '../db/schema/index.ts';
import { SAMPLE_MISSING } from './sample-content.ts';

/** How often a long-lived instance renews the sample alert. */
export const SAMPLE_ALERT_RENEWAL_MS = 24 * 60 * 60 * 1000;

/**
 * Keeps the sample neighbourhood's missing cat up (issue 26), as a caretaker renewing it would: an
 * alert that is still open and has less than MISSING_ALERT_DAYS - 1 days to run gets MISSING_ALERT_DAYS
 * from now. Its last-seen time stays as seeded (relative to the first start): the alert is honest about
 * how long the cat has been gone. Once marked found (a sample caretaker's account can), nothing renews it.
 */
export async function renewSampleAlert(db: Database): Promise<boolean> {
  const renewed = await db
    .update(missingAlerts)
    .set({ expiresAt: sql`now() + make_interval(days => ${MISSING_ALERT_DAYS})` })
    .where(
      and(
        eq(missingAlerts.id, SAMPLE_MISSING.id),
        isNull(missingAlerts.endedAt),
        lt(missingAlerts.expiresAt, sql`now() + make_interval(days => ${MISSING_ALERT_DAYS - 1})`),
      ),
    )
    .returning({ id: missingAlerts.id });
  return renewed.length > 0;
}

/**
 * On an instance with the sample content: renews the sample alert at start and daily. The timer never
 * keeps the process alive and stops when the app closes.
 */
export function keepSampleAlertUp(app: FastifyInstance, db: Database, intervalMs = SAMPLE_ALERT_RENEWAL_MS) {
  const run = () =>
    renewSampleAlert(db).catch((err: unknown) =>
      app.log.warn({ err }, 'could not renew the sample missing-cat alert; the next round retries'),
    );
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    await run();
    timer = setInterval(() => void run(), intervalMs);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
  });
}
