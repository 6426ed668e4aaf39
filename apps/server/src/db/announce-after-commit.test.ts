import { describe, expect, it, vi } from 'vitest';
import { AnnouncementLedger, Announcer, MAX_PENDING, statementKind } from './announce-after-commit.ts';

describe('statementKind', () => {
  it('reads what drizzle and people send to begin, end and nest transactions', () => {
    expect(statementKind('begin')).toBe('begin');
    expect(statementKind('BEGIN isolation level serializable')).toBe('begin');
    expect(statementKind('start transaction')).toBe('begin');
    expect(statementKind('commit')).toBe('commit');
    expect(statementKind('  END')).toBe('commit');
    expect(statementKind('rollback')).toBe('rollback');
    expect(statementKind('rollback to savepoint sp1')).toBe('rollback-to');
    expect(statementKind('savepoint sp1')).toBe('savepoint');
    expect(statementKind('release savepoint sp1')).toBe('release');
    expect(statementKind('insert into likes values ($1, $2)')).toBe('other');
    expect(statementKind('select announce_notification($1)')).toBe('other');
    expect(statementKind('')).toBe('other');
  });
});

describe('AnnouncementLedger', () => {
  it('hands over a statement of its own once it has succeeded, and nothing when it failed', () => {
    const ledger = new AnnouncementLedger();
    ledger.notice('a 1');
    ledger.notice('b 1');
    expect(ledger.settled('other', true, 'INSERT')).toEqual(['a 1', 'b 1']);
    ledger.notice('a 2');
    expect(ledger.settled('other', false)).toEqual([]);
    // The failed statement's announcement does not come back with the next one.
    ledger.notice('a 3');
    expect(ledger.settled('other', true, 'INSERT')).toEqual(['a 3']);
  });

  it("keeps a transaction's announcements until its commit, and drops them on rollback", () => {
    const ledger = new AnnouncementLedger();
    expect(ledger.settled('begin', true, 'BEGIN')).toEqual([]);
    ledger.notice('a 1');
    expect(ledger.settled('other', true, 'INSERT')).toEqual([]);
    ledger.notice('b 1');
    expect(ledger.settled('other', true, 'INSERT')).toEqual([]);
    expect(ledger.settled('commit', true, 'COMMIT')).toEqual(['a 1', 'b 1']);

    ledger.settled('begin', true, 'BEGIN');
    ledger.notice('a 2');
    ledger.settled('other', true, 'INSERT');
    expect(ledger.settled('rollback', true, 'ROLLBACK')).toEqual([]);
    // After the rollback, statements stand alone again.
    ledger.notice('a 3');
    expect(ledger.settled('other', true, 'INSERT')).toEqual(['a 3']);
  });

  it('announces nothing when a COMMIT ends a failed transaction (PostgreSQL answers ROLLBACK)', () => {
    const ledger = new AnnouncementLedger();
    ledger.settled('begin', true, 'BEGIN');
    ledger.notice('a 1');
    ledger.settled('other', true, 'INSERT');
    ledger.settled('other', false);
    expect(ledger.settled('commit', true, 'ROLLBACK')).toEqual([]);
    ledger.settled('begin', true, 'BEGIN');
    ledger.notice('a 2');
    expect(ledger.settled('commit', false)).toEqual([]);
  });

  it('undoes what was announced after a savepoint that is rolled back to, and keeps the rest', () => {
    const ledger = new AnnouncementLedger();
    ledger.settled('begin', true, 'BEGIN');
    ledger.notice('before');
    ledger.settled('other', true, 'INSERT');
    ledger.settled('savepoint', true, 'SAVEPOINT');
    ledger.notice('inner');
    ledger.settled('other', true, 'INSERT');
    ledger.settled('rollback-to', true, 'ROLLBACK');
    ledger.settled('savepoint', true, 'SAVEPOINT');
    ledger.notice('kept');
    ledger.settled('other', true, 'INSERT');
    ledger.settled('release', true, 'RELEASE');
    expect(ledger.settled('commit', true, 'COMMIT')).toEqual(['before', 'kept']);
  });
  it("keeps a bulk transaction's newest seq per recipient past its limit, not every announcement", () => {
    const ledger = new AnnouncementLedger();
    ledger.settled('begin', true, 'BEGIN');
    for (let i = 1; i <= MAX_PENDING + 300_000; i += 1) ledger.notice(`user-${i % 3} ${i}`);
    ledger.notice('user-0 removed some-id');
    const out = ledger.settled('commit', true, 'COMMIT');
    expect(out).toHaveLength(MAX_PENDING + 3);
    expect(out.slice(0, 2)).toEqual(['user-1 1', 'user-2 2']);
    const n = MAX_PENDING + 300_000;
    expect(out.slice(MAX_PENDING).toSorted()).toEqual(
      [0, 1, 2].map((r) => `user-${r} ${n - ((n - r) % 3)}`).toSorted(),
    );
  });
});

describe('Announcer', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('sends what arrives in one turn as one batch, and what arrives meanwhile as the next', async () => {
    const batches: string[][] = [];
    let release: () => void = () => {};
    const announcer = new Announcer({
      send: (payloads) => {
        batches.push(payloads);
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    });
    announcer.announce(['a 1']);
    announcer.announce(['b 1', 'c 1']);
    await tick();
    await tick();
    expect(batches).toEqual([['a 1', 'b 1', 'c 1']]);
    announcer.announce(['a 2']);
    announcer.announce(['a 3']);
    await tick();
    expect(batches).toHaveLength(1);
    release();
    await vi.waitFor(() =>
      expect(batches).toEqual([
        ['a 1', 'b 1', 'c 1'],
        ['a 2', 'a 3'],
      ]),
    );
    release();
    await announcer.close();
  });

  it('tries a refused batch again, in order, and drops the oldest beyond its backlog', async () => {
    const sent: string[][] = [];
    const errors: number[] = [];
    let calls = 0;
    let refuseSecond: () => void = () => {};
    const announcer = new Announcer({
      send: async (payloads) => {
        calls += 1;
        if (calls === 1) throw new Error('connection refused');
        if (calls === 2) {
          await new Promise<void>((resolve) => {
            refuseSecond = resolve;
          });
          throw new Error('connection refused');
        }
        sent.push(payloads);
      },
      onError: (_err, dropped) => errors.push(dropped),
      retryMs: 5,
      maxBacklog: 3,
    });
    announcer.announce(['a 1', 'a 2']);
    await vi.waitFor(() => expect(calls).toBe(2));
    expect(errors).toEqual([0]);
    // Arrives while the retry is on its way, and is refused with it: four queued, three kept.
    announcer.announce(['a 3', 'a 4']);
    refuseSecond();
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(errors).toEqual([0, 1]);
    expect(sent).toEqual([['a 2', 'a 3', 'a 4']]);
    await announcer.close();
  });

  it('sends a bulk list in statements of a thousand, without running out of stack', async () => {
    const sizes: number[] = [];
    const announcer = new Announcer({
      send: async (payloads) => {
        sizes.push(payloads.length);
      },
    });
    announcer.announce(Array.from({ length: 250_000 }, (_, i) => `user ${i}`));
    announcer.announce(['user 250000']);
    await vi.waitFor(() => expect(sizes.reduce((a, b) => a + b, 0)).toBe(250_001));
    expect(Math.max(...sizes)).toBe(1_000);
    await announcer.close();
  });

  it('sends what is still queued when it closes, and nothing after', async () => {
    const sent: string[] = [];
    const announcer = new Announcer({
      send: async (payloads) => {
        sent.push(...payloads);
      },
    });
    announcer.announce(['a 1']);
    await announcer.close();
    announcer.announce(['a 2']);
    await tick();
    expect(sent).toEqual(['a 1']);
  });
});
