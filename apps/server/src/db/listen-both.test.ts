import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-app.ts';
import { ANNOUNCE_CHANNEL } from './announce-after-commit.ts';
import type { Executor } from './client.ts';
import { rowsOf } from './raw-results.ts';
import type { Listener } from './listen.ts';

/**
 * Issue 25: live notifications use LISTEN/NOTIFY on both databases. A NOTIFY is heard once its
 * transaction commits, whether it ran as a single statement or inside a transaction, and never when
 * the transaction rolls back. On PGlite the database hears its own NOTIFYs (pglite-worker.ts).
 */
describe('database: listen', () => {
  let t: TestApp;
  let listener: Listener;
  const heard: string[] = [];
  let arrived: () => void = () => {};
  beforeAll(async () => {
    t = await buildTestApp();
    listener = await t.database.listen('cats_listen_test', (payload) => {
      heard.push(payload);
      arrived();
    });
  });
  afterAll(async () => {
    await listener.close();
    await t.close();
  });

  /** Waits until `count` payloads were heard (or fails after 5 s). */
  const heardCount = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`heard only ${heard.join(',')}`)), 5_000);
      arrived = () => {
        if (heard.length >= count) {
          clearTimeout(timer);
          resolve();
        }
      };
      arrived();
    });

  it('hears a NOTIFY of a single statement, of a committed transaction, and not of a rolled back one', async () => {
    await t.db.execute(sql`select pg_notify('cats_listen_test', 'single')`);
    await heardCount(1);
    await t.db
      .transaction(async (tx) => {
        await tx.execute(sql`select pg_notify('cats_listen_test', 'rolled back')`);
        throw new Error('roll back');
      })
      .catch(() => {});
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify('cats_listen_test', 'in transaction')`);
      // Nothing is heard before the commit.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toEqual(['single']);
    });
    await heardCount(2);
    await t.db.execute(sql`select pg_notify('cats_listen_test', 'after')`);
    await heardCount(3);
    expect(heard).toEqual(['single', 'in transaction', 'after']);
  });

  it("announces notifications once their transaction commits, never a rolled back one's or a failed statement's", async () => {
    const announced: string[] = [];
    const own = await t.database.listen(ANNOUNCE_CHANNEL, (payload) => {
      if (payload.startsWith('test ')) announced.push(payload);
    });
    try {
      const announce = (ex: Executor, payload: string) =>
        ex.execute(sql`select announce_notification(${payload})`);
      await announce(t.db, 'test single');
      await t.db
        .transaction(async (tx) => {
          await announce(tx, 'test rolled back');
          throw new Error('roll back');
        })
        .catch(() => {});
      await t.db.execute(sql`select announce_notification('test failed'), 1 / 0`).catch(() => {});
      await t.db.transaction(async (tx) => {
        await announce(tx, 'test outer');
        await tx
          .transaction(async (inner) => {
            await announce(inner, 'test savepoint rolled back');
            throw new Error('roll back to the savepoint');
          })
          .catch(() => {});
        await tx.transaction(async (inner) => announce(inner, 'test savepoint kept'));
        await new Promise((resolve) => setTimeout(resolve, 50));
        // Nothing before the commit.
        expect(announced).toEqual(['test single']);
      });
      await announce(t.db, 'test last');
      await vi.waitFor(() => expect(announced).toContain('test last'), { timeout: 5_000 });
      expect(announced).toEqual(['test single', 'test outer', 'test savepoint kept', 'test last']);
      if (t.database.kind === 'postgres') {
        // On PostgreSQL the app's connections announce after commit (migration 0015), outside the
        // commit's database-wide NOTIFY lock.
        const [row] = rowsOf(
          await t.db.execute(sql`select current_setting('cats.notify_after_commit', true) as on`),
        );
        expect(row?.on).toBe('on');
      }
    } finally {
      await own.close();
    }
  });
});
