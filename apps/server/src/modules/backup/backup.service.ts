/**
 * Backups and restores (issue 29; docs/operations.md, docs/decisions/020-backups.md). This file takes the
 * backup; restore.service.ts restores one, and backup-archive.ts holds the archive's format.
 *
 * One archive (an uncompressed tar) holds the database, the media files the database points at, the
 * generated secrets of DATA_DIR, and last a manifest (format, time, database kind, migration level,
 * every file with its size and SHA-256). Everything is streamed: media one file at a time, the
 * PostgreSQL dump through a temporary file. The embedded database's dump is the exception PGlite's API
 * makes: dumpDataDir() and loadDataDir hand the whole data directory over as one buffer.
 *
 * Consistency: the backup takes a lease in the database, then the snapshot (pg_dump's exported
 * snapshot, or PGlite's dump taken while no transaction is open) together with the list of media the
 * snapshot references, read in that same snapshot; then it copies exactly those files. The app writes
 * a file before a row points at it, and deletes it only after the rows stop pointing at it; with the
 * lease held, such deletions are deferred (deferred-deletions.ts). So every referenced file is still
 * there to copy, and a file that is missing anyway (deleted by hand, say) fails the backup loudly.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import tar from 'tar-stream';
import type { DatabaseHandle } from '../../db/client.ts';
import { PRIVATE_FILE_MODE } from '../../lib/private-files.ts';
import type { MediaStorage } from '../../media/storage.ts';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  DATA_FILES,
  addFile,
  addStream,
  type ArchivedFile,
  type BackupManifest,
} from './backup-archive.ts';
import { BackupError } from './backup-error.ts';
import * as repo from './backup.repository.ts';
import { runDeferredDeletions } from './deferred-deletions.ts';
import { requireUrl, runTool, toolMajor } from './pg-tools.ts';

/** A lease outlives a dead backup by at most this long; a running one renews it every minute. */
const LEASE_SECONDS = 600;
const LEASE_RENEW_MS = 60_000;

export interface BackupSources {
  database: DatabaseHandle;
  /** Required on PostgreSQL: pg_dump connects with it. */
  databaseUrl?: string | undefined;
  /** The storage as configured (not the app's deferring wrapper: the backup deletes nothing but deferred files). */
  storage: MediaStorage;
  dataDir: string;
  log?: (line: string) => void;
}

export interface BackupSummary {
  databaseKind: 'pglite' | 'postgres';
  databaseBytes: number;
  mediaFiles: number;
  mediaBytes: number;
  migrations: number;
  deferredDeletionsDone: number;
}

/** Writes the archive to `out`. Rejects (and leaves `out` unfinished) on any failure. */
export async function writeBackup(src: BackupSources, out: Writable): Promise<BackupSummary> {
  const { db } = src.database;
  const leaseId = randomUUID();
  let failed = false;
  const tmp = await mkdtemp(join(tmpdir(), 'cats-backup-'));
  const pack = tar.pack();
  const piping = pipeline(pack, out);
  // A broken output fails the backup at once, instead of writing into a pipe nobody drains.
  let outputError: unknown = null;
  piping.catch((err: unknown) => (outputError = err));
  const renew = setInterval(() => {
    void repo.holdLease(db, leaseId, LEASE_SECONDS).catch(() => {});
  }, LEASE_RENEW_MS);
  renew.unref();
  try {
    try {
      await repo.holdLease(db, leaseId, LEASE_SECONDS);
    } catch (err) {
      if (/backup_leases/.test(String((err as Error).message)))
        throw new BackupError(
          'The database is not migrated to this version (no backup_leases table): start this version of the server once, or run npm run db:migrate, then back up.',
        );
      throw err;
    }
    // 1. The database snapshot, with what it references.
    const snap =
      src.database.kind === 'pglite'
        ? await pgliteSnapshot(src.database, tmp)
        : await postgresSnapshot(requireUrl(src.databaseUrl), tmp);
    src.log?.(`Database snapshot taken (${src.database.kind}, ${snap.file.size} bytes).`);
    const dbEntry = await addFile(pack, snap.entryName, snap.file.path, snap.file.size, () => outputError);

    // 2. The media the snapshot references: lister first, so a missing prefix is known before copying.
    const keys: string[] = [];
    const missing: string[] = [];
    for (const ref of snap.references) {
      if (ref.kind === 'key') {
        if (await src.storage.exists(ref.target)) keys.push(ref.target);
        else missing.push(ref.target);
        continue;
      }
      const under = await src.storage.listKeys(ref.target);
      if (under.length === 0) missing.push(`${ref.target}/`);
      keys.push(...under);
    }
    if (missing.length > 0) {
      throw new BackupError(
        `The database points at ${missing.length} media file(s) or folder(s) the storage does not have, so this backup could not be restored whole: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}. Nothing was written.`,
      );
    }
    const media: BackupManifest['media']['files'] = [];
    let mediaBytes = 0;
    for (const key of keys) {
      const object = await src.storage.get(key);
      if (!object)
        throw new BackupError(`The media file ${key} disappeared during the backup; nothing was written.`);
      const entry = await addStream(pack, `media/${key}`, object.body, object.size, tmp, () => outputError);
      media.push({ key, ...entry });
      mediaBytes += entry.size;
    }
    src.log?.(`Media copied: ${media.length} files, ${mediaBytes} bytes.`);

    // 3. DATA_DIR's generated secrets, when there are any.
    const dataFiles: ArchivedFile[] = [];
    for (const name of DATA_FILES) {
      const path = join(src.dataDir, name);
      const info = await stat(path).catch(() => null);
      if (info?.isFile())
        dataFiles.push(await addFile(pack, `data/${name}`, path, info.size, () => outputError));
    }

    // 4. The manifest, last: it carries the checksums of everything before it.
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      createdAt: snap.takenAt,
      database: { kind: src.database.kind, ...dbEntry, ...snap.versions },
      migrations: snap.migrations,
      media: { storage: src.storage.kind, files: media },
      dataFiles,
    };
    pack.entry({ name: 'manifest.json' }, JSON.stringify(manifest, null, 2));
    pack.finalize();
    await piping;
    return {
      databaseKind: src.database.kind,
      databaseBytes: dbEntry.size,
      mediaFiles: media.length,
      mediaBytes,
      migrations: snap.migrations.applied,
      deferredDeletionsDone: 0,
    };
  } catch (err) {
    pack.destroy(err as Error);
    await piping.catch(() => {});
    failed = true;
    throw err;
  } finally {
    clearInterval(renew);
    await rm(tmp, { recursive: true, force: true });
    await repo.releaseLease(db, leaseId).catch(() => {});
    // A failed backup does not leave the deletions it deferred waiting for the next one.
    if (failed) await runDeferredDeletions(db, src.storage).catch(() => {});
  }
}

/** Ends a backup: the deletions deferred while it ran are carried out (if no other backup runs). */
export async function finishBackup(src: BackupSources, summary: BackupSummary): Promise<BackupSummary> {
  const done = await runDeferredDeletions(src.database.db, src.storage);
  return { ...summary, deferredDeletionsDone: done };
}

interface Snapshot {
  entryName: string;
  file: { path: string; size: number };
  takenAt: string;
  references: repo.MediaReference[];
  migrations: repo.MigrationLevel;
  versions: { serverMajor?: number; pgDumpMajor?: number };
}

async function pgliteSnapshot(database: DatabaseHandle, tmp: string): Promise<Snapshot> {
  if (!database.snapshot) throw new Error('This database cannot take a snapshot');
  const takenAt = new Date().toISOString();
  const { dump, rows } = await database.snapshot([repo.REFERENCED_MEDIA_SQL, repo.MIGRATION_LEVEL_SQL]);
  const path = join(tmp, 'pglite.tar');
  await writeFile(path, dump, { mode: PRIVATE_FILE_MODE });
  return {
    entryName: 'database/pglite.tar',
    file: { path, size: dump.byteLength },
    takenAt,
    references: repo.readReferences(rows[0]!),
    migrations: repo.readMigrationLevel(rows[1]!),
    versions: {},
  };
}

/**
 * pg_dump of an exported snapshot: this connection opens a repeatable-read transaction, exports its
 * snapshot and reads the media references in it; pg_dump dumps that same snapshot while it stays open.
 */
async function postgresSnapshot(url: string, tmp: string): Promise<Snapshot> {
  const pgDumpMajor = await toolMajor('pg_dump');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const serverMajor = Math.floor(
      Number((await client.query<{ v: string }>('show server_version_num')).rows[0]!.v) / 10000,
    );
    if (pgDumpMajor < serverMajor) {
      throw new BackupError(
        `pg_dump ${pgDumpMajor} cannot dump a PostgreSQL ${serverMajor} server: install the client tools of version ${serverMajor} or newer (Debian/Ubuntu: apt-get install postgresql-client-${serverMajor}) and put their pg_dump first on PATH.`,
      );
    }
    await client.query('begin isolation level repeatable read read only');
    const snapshotId = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]!.id;
    const takenAt = new Date().toISOString();
    const references = repo.readReferences((await client.query(repo.REFERENCED_MEDIA_SQL)).rows);
    const migrations = repo.readMigrationLevel((await client.query(repo.MIGRATION_LEVEL_SQL)).rows);
    const path = join(tmp, 'postgres.dump');
    await runTool('pg_dump', ['--format=custom', `--snapshot=${snapshotId}`, `--file=${path}`], url);
    await client.query('commit');
    return {
      entryName: 'database/postgres.dump',
      file: { path, size: (await stat(path)).size },
      takenAt,
      references,
      migrations,
      versions: { serverMajor, pgDumpMajor },
    };
  } finally {
    await client.end().catch(() => {});
  }
}
