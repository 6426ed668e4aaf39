import { randomBytes, randomUUID } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DATA_EXPORT_KEEP_HOURS, type DataExportStatus } from '@cats/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/http-errors.ts';
import type { MediaStorage } from '../../media/storage.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { writeExportArchive } from './export-archive.ts';
import * as repo from './data-export.repository.ts';
import { HOUR_MS } from '../../lib/durations.ts';

export const DATA_EXPORT_MESSAGES = {
  alreadyRunning: 'Your data is already being prepared',
  noneReady: 'No download is ready',
  failed: 'Your data could not be prepared. Please try again.',
  interrupted: 'Preparing your data was interrupted. Please try again.',
} as const;

const KEEP_MS = DATA_EXPORT_KEEP_HOURS * HOUR_MS;
/**
 * A running export older than this lost its instance (a crash or a deploy): it may be started again,
 * and shows as interrupted. 1,000 posts take well under two minutes (bench/loads/data-export.ts).
 */
export const STALE_EXPORT_MS = HOUR_MS;

export interface DataExportDeps {
  db: Database;
  storage: MediaStorage;
  log: FastifyBaseLogger;
  /** Where the zip is written before it goes to the storage (the upload spool's directory). */
  tmpDir: string;
}

export interface DataExportDownload {
  body: Readable;
  size: number;
  createdAt: Date;
}

function toStatus(row: repo.ExportRow | null, now: Date): DataExportStatus {
  const none: DataExportStatus = {
    status: 'none',
    createdAt: null,
    finishedAt: null,
    expiresAt: null,
    sizeBytes: null,
    message: null,
  };
  if (!row) return none;
  const base = { ...none, createdAt: row.createdAt.toISOString() };
  if (row.status === 'running') {
    if (now.getTime() - row.createdAt.getTime() > STALE_EXPORT_MS)
      return { ...base, status: 'failed', message: DATA_EXPORT_MESSAGES.interrupted };
    return { ...base, status: 'running' };
  }
  const finishedAt = row.finishedAt ?? row.createdAt;
  const expiresAt = new Date(finishedAt.getTime() + KEEP_MS);
  // Expired and not swept yet: gone as far as the user is concerned.
  if (expiresAt <= now) return none;
  if (row.status === 'failed')
    return {
      ...base,
      status: 'failed',
      finishedAt: finishedAt.toISOString(),
      message: row.error ?? DATA_EXPORT_MESSAGES.failed,
    };
  return {
    ...base,
    status: 'ready',
    finishedAt: finishedAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
    sizeBytes: row.sizeBytes,
  };
}

/**
 * 'Download my data' (issue 24). The state is a row per user in the database and the zip an object in
 * the media storage, so any instance reports and serves an export that another one prepared. The
 * preparation itself runs in the instance that was asked, after the 202: one job per user at a time.
 */
export function createDataExportService(deps: DataExportDeps) {
  const { db, storage, log } = deps;
  const jobs = new Set<Promise<void>>();
  const closing = new AbortController();

  async function prepare(userId: string, startedAt: Date): Promise<void> {
    const path = join(deps.tmpDir, `export-${randomUUID()}.zip`);
    const key = `exports/${randomBytes(32).toString('hex')}.zip`;
    let stored = false;
    try {
      await writeExportArchive({ db, storage, log }, userId, path, closing.signal);
      const { size } = await stat(path);
      await storage.putFile(key, path, 'application/zip');
      stored = true;
      // Not the user's export any more (their account was deleted meanwhile): the file goes too.
      if (!(await repo.finishExport(db, userId, startedAt, { key, size }))) await storage.delete(key);
    } catch (err) {
      const interrupted = closing.signal.aborted;
      if (!interrupted) log.error({ err, userId }, 'data export failed');
      const message = interrupted ? DATA_EXPORT_MESSAGES.interrupted : DATA_EXPORT_MESSAGES.failed;
      await repo
        .failExport(db, userId, startedAt, message)
        .catch((e: unknown) => log.warn({ err: e }, 'export state not saved'));
      if (stored) await storage.delete(key).catch(() => {});
    } finally {
      await rm(path, { force: true });
    }
  }

  async function removeFile(key: string | null): Promise<void> {
    if (!key) return;
    try {
      await storage.delete(key);
    } catch (err) {
      log.warn({ err, key }, 'data export file not deleted');
    }
  }

  return {
    async start(viewer: AuthContext, now = new Date()): Promise<DataExportStatus> {
      const started = await repo.startExport(
        db,
        viewer.userId,
        now,
        new Date(now.getTime() - STALE_EXPORT_MS),
      );
      if (!started) throw conflict(DATA_EXPORT_MESSAGES.alreadyRunning);
      await removeFile(started.replacedKey);
      const job = prepare(viewer.userId, started.started.createdAt).finally(() => jobs.delete(job));
      jobs.add(job);
      return toStatus(started.started, now);
    },

    async status(viewer: AuthContext, now = new Date()): Promise<DataExportStatus> {
      return toStatus(await repo.findExport(db, viewer.userId), now);
    },

    /** The caller's own ready export; 404 for anything else, so nobody learns of another's file. */
    async download(viewer: AuthContext, now = new Date()): Promise<DataExportDownload> {
      const row = await repo.findExport(db, viewer.userId);
      if (!row || toStatus(row, now).status !== 'ready' || !row.fileKey)
        throw notFound(DATA_EXPORT_MESSAGES.noneReady);
      const object = await storage.get(row.fileKey);
      if (!object) throw notFound(DATA_EXPORT_MESSAGES.noneReady);
      return { body: object.body, size: object.size ?? row.sizeBytes ?? 0, createdAt: row.createdAt };
    },

    /** Removes exports a day after they finished, and the rows of exports whose instance died. */
    async sweep(now = new Date()): Promise<number> {
      const rows = await repo.expiredExports(
        db,
        new Date(now.getTime() - KEEP_MS),
        new Date(now.getTime() - STALE_EXPORT_MS),
      );
      for (const row of rows) {
        await removeFile(row.fileKey);
        await repo.deleteExport(db, row);
      }
      return rows.length;
    },

    /** Interrupts the jobs under way (each marks its export interrupted) and waits for them. */
    async close(): Promise<void> {
      closing.abort();
      await Promise.allSettled([...jobs]);
    },

    /** For tests: resolves when the jobs under way have finished. */
    async idle(): Promise<void> {
      await Promise.allSettled([...jobs]);
    },
  };
}

export type DataExportService = ReturnType<typeof createDataExportService>;
