import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ReadinessChecks } from '@cats/contracts';
import { sharedRedis } from '../../lib/redis.ts';

/** Each readiness check gives up after this long: a load balancer's probe must not hang on a dead peer. */
export const READY_CHECK_TIMEOUT_MS = 2000;

/** The 503 answers' texts: server faults, which stay in English (decision 017). */
export const readinessText = {
  draining: 'The server is shutting down',
  notReady: (failed: string[]) => `Not ready: ${failed.join(', ')} unavailable`,
} as const;

type CheckName = keyof ReadinessChecks;

/** Resolves when `work` does within the timeout; rejects otherwise, with work's error or a timeout. */
async function withTimeout(work: () => Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this instance should take traffic: its dependencies answer and it is not draining. The
 * drain (server.ts, on SIGTERM) comes first so that a load balancer stops sending requests before the
 * server stops accepting them; liveness (/api/health) is not affected by it.
 */
export class Readiness {
  #draining = false;

  constructor(
    private readonly app: FastifyInstance,
    private readonly timeoutMs = READY_CHECK_TIMEOUT_MS,
  ) {}

  get draining(): boolean {
    return this.#draining;
  }

  /** From now on readiness answers 503; every request is still served. */
  startDraining(): void {
    this.#draining = true;
  }

  /** Runs every check at once; `failed` lists those that threw or timed out. */
  async check(log: FastifyBaseLogger): Promise<{ checks: ReadinessChecks; failed: CheckName[] }> {
    const { app } = this;
    const redisUrl = app.config.REDIS_URL;
    const probes: [CheckName, () => Promise<unknown>][] = [
      ['database', () => app.database.ping()],
      ['storage', () => app.storage.probe()],
    ];
    if (redisUrl) probes.push(['redis', () => sharedRedis(redisUrl).ping()]);
    const results = await Promise.allSettled(probes.map(([, probe]) => withTimeout(probe, this.timeoutMs)));
    const checks: Partial<ReadinessChecks> = {};
    const failed: CheckName[] = [];
    results.forEach((result, i) => {
      const name = probes[i]![0];
      checks[name] = result.status === 'fulfilled' ? 'ok' : 'failed';
      if (result.status === 'rejected') {
        failed.push(name);
        log.warn({ err: result.reason as unknown, check: name }, 'readiness check failed');
      }
    });
    return { checks: checks as ReadinessChecks, failed };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
  }
}

/**
 * Decorates the app with its readiness. While draining, answers carry `Connection: close`, so that
 * clients holding a keep-alive connection open their next one elsewhere (the load balancer's choice).
 */
export const readinessPlugin = fp(async (app: FastifyInstance) => {
  const readiness = new Readiness(app);
  app.decorate('readiness', readiness);
  app.addHook('onRequest', async (_request, reply) => {
    if (readiness.draining) reply.header('connection', 'close');
  });
});
