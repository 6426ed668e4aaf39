import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { trashSweepPlugin } from './trash-sweep.ts';

describe('trashSweepPlugin', () => {
  it('sweeps when the app is ready and then on its interval, and stops when the app closes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      const sweep = vi.fn(async (_now: Date) => 0);
      const app = Fastify();
      await app.register(trashSweepPlugin, { intervalMs: 1000, sweep });
      expect(sweep).not.toHaveBeenCalled();
      await app.ready();
      expect(sweep).toHaveBeenCalledTimes(1);
      expect(sweep.mock.calls[0]![0]).toBeInstanceOf(Date);
      await vi.advanceTimersByTimeAsync(2500);
      expect(sweep).toHaveBeenCalledTimes(3);
      await app.close();
      await vi.advanceTimersByTimeAsync(5000);
      expect(sweep).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('logs a failed round and tries again on the next one', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const sweep = vi.fn(async () => {
        throw new Error('database away');
      });
      const app = Fastify();
      await app.register(trashSweepPlugin, { intervalMs: 1000, sweep });
      const warn = vi.spyOn(app.log, 'warn');
      await app.ready();
      await vi.advanceTimersByTimeAsync(1000);
      expect(sweep).toHaveBeenCalledTimes(2);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ err: expect.any(Error) }),
        expect.any(String),
      );
      await app.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
