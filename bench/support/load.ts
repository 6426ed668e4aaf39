/** HTTP load with autocannon, in this process, and the figures the budgets need. */
import autocannon, { type Request, type Result } from 'autocannon';
import { perRequest, type CpuPerRequest, type CpuReading } from './cpu.ts';

export interface LoadFigures {
  connections: number;
  durationS: number;
  requests: number;
  /** Completed requests per second. */
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Connection errors and timeouts plus non-2xx answers. */
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Mean response body size. */
  bytesPerRequest: number;
  /** Wall-clock window of the measured run (epoch ms), to match the server's own log. */
  startedAt: number;
  endedAt: number;
  /** Time the server itself reports (its log's responseTime): the part not spent queueing. */
  server?: { p50Ms: number; p99Ms: number; requests: number };
  /** CPU per completed request over the measured run, when the load was given a meter. */
  cpuPerRequest?: CpuPerRequest;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationS: number;
  /** One entry is enough; setupRequest picks per-request values (token, post). */
  requests: Request[];
  /** Seconds of the same load before measuring (JIT, caches, pools). */
  warmupS?: number;
  /** Reads the CPU used so far (bench/support/cpu.ts); read before and after the measured run. */
  cpu?: () => CpuReading;
}

function figures(opts: LoadOptions, result: Result, startedAt: number): LoadFigures {
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, v.count]),
  );
  const completed = result.latency.total ?? result.requests.total;
  return {
    connections: opts.connections,
    durationS: result.duration,
    requests: result.requests.total,
    rps: Math.round(result.requests.total / result.duration),
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
    non2xx: result.non2xx,
    statusCodes,
    bytesPerRequest: completed > 0 ? Math.round((result.throughput.total ?? 0) / completed) : 0,
    startedAt,
    endedAt: Date.now(),
  };
}

async function runOnce(opts: LoadOptions, durationS: number): Promise<LoadFigures> {
  const startedAt = Date.now();
  const before = opts.cpu?.();
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: durationS,
    timeout: 30,
    requests: opts.requests,
  });
  const measured = figures(opts, result, startedAt);
  if (!before || !opts.cpu) return measured;
  return { ...measured, cpuPerRequest: perRequest(before, opts.cpu(), measured.requests) };
}

/** Load that runs until stopped (e.g. readers while uploads happen). */
export function startLoad(opts: Omit<LoadOptions, 'durationS'>): { stop(): Promise<LoadFigures> } {
  const startedAt = Date.now();
  const instance = autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: 3600,
    timeout: 30,
    requests: opts.requests,
  });
  return {
    async stop() {
      instance.stop();
      return figures({ ...opts, durationS: 0 }, await instance, startedAt);
    },
  };
}

export async function measure(opts: LoadOptions): Promise<LoadFigures> {
  if (opts.warmupS) await runOnce({ ...opts, cpu: undefined }, opts.warmupS);
  return runOnce(opts, opts.durationS);
}

/** A value picked at random per request (tokens, post ids). */
export const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

/** A request whose headers and path are chosen per request. */
export function request(
  method: string,
  path: () => string,
  headers: () => Record<string, string>,
  body?: () => string,
): Request {
  return {
    method,
    setupRequest: (req) => ({
      ...req,
      method,
      path: path(),
      headers: { ...headers(), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: body() } : {}),
    }),
  };
}
