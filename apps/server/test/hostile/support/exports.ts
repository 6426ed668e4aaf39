import { eq } from 'drizzle-orm';
import type { Database } from '../../../src/db/client.ts';
import { dataExports } from '../../../src/db/schema/index.ts';

/**
 * Waits until no data export is being prepared. Exports run after their 202 and write a file and a
 * row when they finish; a check that "nothing changed" around a later request must not see that.
 */
export async function exportsSettled(db: Database): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const running = await db
      .select({ userId: dataExports.userId })
      .from(dataExports)
      .where(eq(dataExports.status, 'running'));
    if (running.length === 0) return;
    if (Date.now() > deadline) throw new Error('data exports still running after 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
