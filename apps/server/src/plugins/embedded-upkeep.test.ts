import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { embeddedUpkeepPlugin } from './embedded-upkeep.ts';

async function appWith(kind: 'pglite' | 'postgres', upkeep: () => Promise<unknown>) {
  const app = Fastify();
  app.decorate('database', { kind, upkeep } as never);
  await app.register(embeddedUpkeepPlugin, { delayMs: 60_000 });
  app.get('/', async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('embedded database upkeep plugin', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tidies the embedded database a minute after the last answer, once per quiet spell', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const upkeep = vi.fn(async () => ({ vacuumed: ['posts'], analyzed: ['posts'] }));
    const app = await appWith('pglite', upkeep);
    await app.inject({ url: '/' });
    vi.advanceTimersByTime(50_000);
    await app.inject({ url: '/' });
    vi.advanceTimersByTime(50_000);
    expect(upkeep).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10_000);
    expect(upkeep).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(600_000);
    expect(upkeep).toHaveBeenCalledTimes(1);
    await app.inject({ url: '/' });
    vi.advanceTimersByTime(60_000);
    expect(upkeep).toHaveBeenCalledTimes(2);
    await app.close();
  });

  it('tidies a server that never falls quiet a minute into its busy spell, and each minute after', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const upkeep = vi.fn(async () => ({ vacuumed: [], analyzed: ['likes'] }));
    const app = await appWith('pglite', upkeep);
    // An answer every 10 s for 200 s: never a quiet minute.
    const calls: number[] = [];
    for (let t = 0; t <= 200_000; t += 10_000) {
      await app.inject({ url: '/' });
      calls.push(upkeep.mock.calls.length);
      vi.advanceTimersByTime(10_000);
    }
    // The first answer starts the spell; the answer at 60 s starts a round, the next one a new spell.
    expect(calls.slice(0, 6).every((n) => n === 0)).toBe(true);
    expect(calls[6]).toBe(1);
    expect(calls[12]).toBe(1);
    expect(calls[13]).toBe(2);
    expect(upkeep).toHaveBeenCalledTimes(3);
    // Then quiet: one more round a minute after the last answer, and none after that.
    vi.advanceTimersByTime(50_000);
    expect(upkeep).toHaveBeenCalledTimes(4);
    vi.advanceTimersByTime(600_000);
    expect(upkeep).toHaveBeenCalledTimes(4);
    await app.close();
  });

  it('lets a round under way finish before the database closes, and starts none after', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let finish!: () => void;
    const upkeep = vi.fn(
      () => new Promise<unknown>((resolve) => (finish = () => resolve({ vacuumed: [], analyzed: [] }))),
    );
    const app = await appWith('pglite', upkeep);
    vi.advanceTimersByTime(60_000);
    expect(upkeep).toHaveBeenCalledTimes(1);
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    finish();
    await closing;
    vi.advanceTimersByTime(600_000);
    expect(upkeep).toHaveBeenCalledTimes(1);
  });

  it('logs a failed round and carries on', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const upkeep = vi.fn(async () => {
      throw new Error('disk full');
    });
    const app = await appWith('pglite', upkeep);
    const warn = vi.spyOn(app.log, 'warn');
    vi.advanceTimersByTime(60_000);
    await vi.waitFor(() =>
      expect(warn).toHaveBeenCalledWith(expect.anything(), 'embedded database upkeep failed'),
    );
    await app.inject({ url: '/' });
    vi.advanceTimersByTime(60_000);
    expect(upkeep).toHaveBeenCalledTimes(2);
    await app.close();
  });

  it('leaves PostgreSQL to its autovacuum', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const upkeep = vi.fn(async () => ({ vacuumed: [], analyzed: [] }));
    const app = await appWith('postgres', upkeep);
    await app.inject({ url: '/' });
    vi.advanceTimersByTime(600_000);
    expect(upkeep).not.toHaveBeenCalled();
    await app.close();
  });
});
