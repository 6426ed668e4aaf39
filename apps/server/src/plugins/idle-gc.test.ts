import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdleCollector } from '../lib/garbage.ts';
import { idleGcPlugin } from './idle-gc.ts';

describe('IdleCollector', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('collects once after a quiet spell, and each touch starts the wait again', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const collector = new IdleCollector(5_000, collect);
    vi.advanceTimersByTime(4_000);
    collector.touch();
    vi.advanceTimersByTime(4_000);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(1);
    collector.touch();
    vi.advanceTimersByTime(5_000);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('never collects once stopped', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    new IdleCollector(5_000, collect).stop();
    vi.advanceTimersByTime(60_000);
    expect(collect).not.toHaveBeenCalled();
  });
});

describe('idle GC plugin', () => {
  it('asks the database thread to collect once the server has answered nothing for a while', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const app = Fastify();
      const collectGarbage = vi.fn(async () => {});
      app.decorate('database', { collectGarbage } as never);
      await app.register(idleGcPlugin, { delayMs: 5_000 });
      app.get('/', async () => ({ ok: true }));
      await app.ready();
      for (let i = 0; i < 3; i += 1) {
        await app.inject({ url: '/' });
        vi.advanceTimersByTime(4_000);
      }
      // Three answers 4 s apart kept it waiting; then it is quiet.
      expect(collectGarbage).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1_000);
      expect(collectGarbage).toHaveBeenCalledTimes(1);
      // Shutdown stops it before anything closes, even while requests are still being answered.
      await app.inject({ url: '/' });
      await app.close();
      vi.advanceTimersByTime(60_000);
      expect(collectGarbage).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
