/**
 * CPU time spent per request, by the server, the database and the load generator (Linux /proc).
 * On two cores a load's throughput is its CPU cost: the figure shows where a request's time goes
 * (server, database, load generator) and how many requests per second the cores allow at most.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Kernel clock ticks per second (`getconf CLK_TCK`): 100 on every Linux build we run on. */
const TICKS_PER_SECOND = 100;

export interface CpuReading {
  serverMs: number;
  databaseMs: number;
  loadGeneratorMs: number;
}

export interface CpuPerRequest {
  /** The server process, all its threads (on PGlite the database's thread too). */
  serverMs: number;
  /** PostgreSQL's processes; 0 on PGlite, whose database runs inside the server process. */
  databaseMs: number;
  /** This process: autocannon, which shares the two cores with the server. */
  loadGeneratorMs: number;
}

/** utime + stime of a process in ms, or null when it is gone. */
export function processCpuMs(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after the command name, which is in parentheses and may itself hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, so 12 and 13 after the name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Every PostgreSQL server process on the machine: the postmaster and its backends and workers. */
function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let name: string;
    try {
      name = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (name !== 'postgres') continue;
    total += processCpuMs(Number(entry)) ?? 0;
  }
  return total;
}

/** Reads the CPU used so far; `withPostgres` counts the machine's PostgreSQL processes too. */
export function cpuMeter(serverPid: number, withPostgres: boolean): () => CpuReading {
  return () => {
    const self = process.cpuUsage();
    return {
      serverMs: processCpuMs(serverPid) ?? Number.NaN,
      databaseMs: withPostgres ? postgresCpuMs() : 0,
      loadGeneratorMs: (self.user + self.system) / 1000,
    };
  };
}

/** CPU per request between two readings; rounded to µs-level precision in ms. */
export function perRequest(before: CpuReading, after: CpuReading, requests: number): CpuPerRequest {
  const per = (a: number, b: number) => (requests > 0 ? Math.round(((b - a) / requests) * 1000) / 1000 : 0);
  return {
    serverMs: per(before.serverMs, after.serverMs),
    databaseMs: per(before.databaseMs, after.databaseMs),
    loadGeneratorMs: per(before.loadGeneratorMs, after.loadGeneratorMs),
  };
}
