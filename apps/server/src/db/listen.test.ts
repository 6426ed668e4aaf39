import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../test/build-app.ts';
import { LISTEN_RETRY_MS } from './listen.ts';
import { rowsOf } from './raw-results.ts';

/** PostgreSQL's LISTEN behind DatabaseHandle.listen (account deletions use it: plugins/auth.ts). */
describe('database: listening for notifications', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const notify = (channel: string, payload: string) =>
    t.db.execute(sql`select pg_notify(${channel}, ${payload})`);

  it('hears each payload on its channel only, and nothing once closed', async (ctx) => {
    if (t.database.kind !== 'postgres') return ctx.skip();
    const heard: string[] = [];
    const listener = await t.database.listen('cats_test_a', (payload) => heard.push(payload));
    await notify('cats_test_a', 'one');
    await notify('cats_test_other', 'not for it');
    await notify('cats_test_a', 'two');
    await vi.waitFor(() => expect(heard).toEqual(['one', 'two']));
    await listener.close();
    await notify('cats_test_a', 'after close');
    // A notification to a live listener arrives within milliseconds; give a closed one ample time.
    await new Promise((r) => setTimeout(r, 300));
    expect(heard).toEqual(['one', 'two']);
  });

  it('connects again after its connection is cut, and hears what comes after', async (ctx) => {
    if (t.database.kind !== 'postgres') return ctx.skip();
    const heard: string[] = [];
    const errors: Error[] = [];
    let resumed = 0;
    const listener = await t.database.listen(
      'cats_test_b',
      (payload) => heard.push(payload),
      (err) => errors.push(err),
      () => (resumed += 1),
    );
    // Listening from the first try: nothing was missed.
    expect(resumed).toBe(0);
    try {
      const cut = await t.db.execute(
        sql`select pg_terminate_backend(pid) as cut from pg_stat_activity
            where datname = current_database() and query = 'LISTEN cats_test_b'`,
      );
      expect(rowsOf(cut)).toEqual([{ cut: true }]);
      await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0));
      // Sent until the new connection listens; the first one after that is heard.
      await vi.waitFor(
        async () => {
          await notify('cats_test_b', 'again');
          expect(heard).toContain('again');
        },
        { timeout: LISTEN_RETRY_MS * 5, interval: 100 },
      );
      // The caller was told once that it may have missed something in between (streams catch up).
      expect(resumed).toBe(1);
    } finally {
      await listener.close();
    }
  });
});
