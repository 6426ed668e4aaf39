/** The server's own view of each measurement: responseTime from its request log (pino, LOG_LEVEL=info). */
import { readFileSync } from 'node:fs';
import type { LoadFigures } from './load.ts';

interface Completed {
  time: number;
  ms: number;
}

function completedRequests(logFile: string): Completed[] {
  const out: Completed[] = [];
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"request completed"')) continue;
    try {
      const entry = JSON.parse(line) as { time: number; responseTime: number };
      out.push({ time: entry.time, ms: entry.responseTime });
    } catch {
      /* not JSON */
    }
  }
  return out;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Fills `server` of each load with the percentiles of the requests the server completed in its window. */
export function attachServerTimes(logFile: string, loads: LoadFigures[]): void {
  const completed = completedRequests(logFile);
  for (const load of loads) {
    const times = completed
      .filter((c) => c.time >= load.startedAt && c.time <= load.endedAt)
      .map((c) => c.ms)
      .sort((a, b) => a - b);
    if (times.length === 0) continue;
    const round = (v: number) => Math.round(v * 10) / 10;
    load.server = {
      p50Ms: round(percentile(times, 0.5)),
      p99Ms: round(percentile(times, 0.99)),
      requests: times.length,
    };
  }
}
