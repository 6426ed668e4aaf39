/**
 * Backups and restores (issue 29; docs/operations.md, docs/decisions/020-backups.md).
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
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import tar from 'tar-stream';

type TarPack = ReturnType<typeof tar.pack>;
type TarEntry = Readable & { header: tar.Header };
import type { DatabaseHandle } from '../../db/client.ts';
import { migrationsFolder } from '../../db/client.ts';
import { openPglite } from '../../db/pglite-thread.ts';
import { PRIVATE_FILE_MODE } from '../../lib/private-files.ts';
import { MEDIA_ROOTS, type MediaStorage } from '../../media/storage.ts';
import * as repo from './backup.repository.ts';
import { runDeferredDeletions } from './deferred-deletions.ts';

export const BACKUP_FORMAT = 'neighbourhood-cats-backup';
export const BACKUP_FORMAT_VERSION = 1;
/** A lease outlives a dead backup by at most this long; a running one renews it every minute. */
const LEASE_SECONDS = 600;
const LEASE_RENEW_MS = 60_000;
/** Generated secrets kept in DATA_DIR (secrets.ts, push/vapid-keys.ts): sessions and push go on after a restore. */
const DATA_FILES = ['secrets.json', 'vapid.json'] as const;

export interface ArchivedFile {
  name: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  database: ArchivedFile & {
    kind: 'pglite' | 'postgres';
    /** PostgreSQL: the server's and pg_dump's major versions (pg_restore must be at least pg_dump's). */
    serverMajor?: number;
    pgDumpMajor?: number;
  };
  migrations: repo.MigrationLevel;
  media: { storage: 'local' | 's3'; files: (ArchivedFile & { key: string })[] };
  dataFiles: ArchivedFile[];
}

/** A refusal or failure with a message for the operator (printed as it is by the command line). */
export class BackupError extends Error {
  override name = 'BackupError';
}

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

function requireUrl(url: string | undefined): string {
  if (!url) throw new Error('A PostgreSQL backup needs DATABASE_URL');
  return url;
}

/** The tool's major version (`pg_dump (PostgreSQL) 15.20` -> 15), or a message naming what to install. */
export async function toolMajor(tool: 'pg_dump' | 'pg_restore'): Promise<number> {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(tool, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') {
      throw new BackupError(
        `${tool} was not found on PATH. Backups and restores on PostgreSQL use the server's own tools: install the PostgreSQL client tools of your server's major version or newer (Debian/Ubuntu: apt-get install postgresql-client; elsewhere the postgresql client package), then try again.`,
      );
    }
    throw err;
  });
  const match = /(\d+)(?:\.\d+)?/.exec(output);
  if (!match) throw new BackupError(`Could not read the version of ${tool} (it answered: ${output.trim()})`);
  return Number(match[1]);
}

/**
 * Runs pg_dump or pg_restore against `url`, the password passed in the environment rather than on the
 * command line (where any user of the machine could read it in the process list).
 */
async function runTool(tool: 'pg_dump' | 'pg_restore', args: string[], url: string): Promise<void> {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  await new Promise<void>((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${parsed.toString()}`], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${tool} failed (exit code ${code}): ${stderr.trim()}`)),
    );
  });
}

/** Counts and hashes what passes through. */
function hashing(): Transform & { digest(): { size: number; sha256: string } } {
  const hash = createHash('sha256');
  let size = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  return Object.assign(transform, { digest: () => ({ size, sha256: hash.digest('hex') }) });
}

async function addFile(
  pack: TarPack,
  name: string,
  path: string,
  size: number,
  outputError: () => unknown,
): Promise<ArchivedFile> {
  return { name, ...(await addEntry(pack, name, createReadStream(path), size, outputError)) };
}

/** A media object into the archive; one of unknown size goes through a temporary file first. */
async function addStream(
  pack: TarPack,
  name: string,
  body: Readable,
  size: number | undefined,
  tmp: string,
  outputError: () => unknown,
): Promise<{ name: string; size: number; sha256: string }> {
  if (size !== undefined) return { name, ...(await addEntry(pack, name, body, size, outputError)) };
  const path = join(tmp, 'object');
  await pipeline(body, createWriteStream(path, { mode: PRIVATE_FILE_MODE }));
  const entry = await addFile(pack, name, path, (await stat(path)).size, outputError);
  await rm(path, { force: true });
  return entry;
}

async function addEntry(
  pack: TarPack,
  name: string,
  body: Readable,
  size: number,
  outputError: () => unknown,
): Promise<{ size: number; sha256: string }> {
  if (outputError()) throw outputError();
  const hash = hashing();
  const entry = pack.entry({ name, size, mode: 0o600 });
  await pipeline(body, hash, entry as unknown as Writable);
  const digest = hash.digest();
  if (digest.size !== size) throw new BackupError(`${name} changed size while it was copied`);
  return digest;
}

// ---------------------------------------------------------------------------------------------------
// Restore

export interface RestoreTarget {
  kind: 'pglite' | 'postgres';
  dataDir: string;
  databaseUrl?: string | undefined;
  storage: MediaStorage;
  /** Local media directory, when the storage is local (to check it is empty). */
  mediaDir?: string | undefined;
  log?: (line: string) => void;
}

export interface RestoreSummary {
  databaseKind: 'pglite' | 'postgres';
  mediaFiles: number;
  createdAt: string;
}

/** Every entry's size and checksum, read in one pass, against the manifest at the end. */
export async function verifyArchive(file: string): Promise<BackupManifest> {
  const seen = new Map<string, { size: number; sha256: string }>();
  let manifestText: string | null = null;
  await readArchive(file, async (name, stream) => {
    if (name === 'manifest.json') {
      manifestText = await text(stream);
      return;
    }
    const hash = hashing();
    await pipeline(stream, hash, new Writable({ write: (_c, _e, done) => done() }));
    seen.set(name, hash.digest());
  });
  if (manifestText === null)
    throw new BackupError(`${file} has no manifest.json: it is not a complete backup.`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(manifestText) as BackupManifest;
  } catch {
    throw new BackupError(`${file}: its manifest.json is not valid JSON; the archive is damaged.`);
  }
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError(`${file} is not a Neighbourhood Cats backup.`);
  if (manifest.version !== BACKUP_FORMAT_VERSION) {
    throw new BackupError(
      `${file} is a backup of format version ${manifest.version}; this version reads version ${BACKUP_FORMAT_VERSION}.`,
    );
  }
  const listed: ArchivedFile[] = [manifest.database, ...manifest.media.files, ...manifest.dataFiles];
  const bad: string[] = [];
  for (const entry of listed) {
    const found = seen.get(entry.name);
    if (!found) bad.push(`${entry.name} (missing)`);
    else if (found.size !== entry.size || found.sha256 !== entry.sha256) bad.push(`${entry.name} (checksum)`);
    seen.delete(entry.name);
  }
  for (const extra of seen.keys()) bad.push(`${extra} (not in the manifest)`);
  if (bad.length > 0) {
    throw new BackupError(
      `${file} is damaged: ${bad.length} file(s) do not match the manifest: ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ', …' : ''}. Nothing was restored.`,
    );
  }
  const known = await knownMigrations();
  if (manifest.migrations.applied > known) {
    throw new BackupError(
      `${file} was made by a newer version (${manifest.migrations.applied} migrations; this version knows ${known}). Restore it with that version or newer.`,
    );
  }
  return manifest;
}

async function knownMigrations(): Promise<number> {
  const journal = JSON.parse(await readFile(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** What is not empty among the restore's targets (an empty list: safe to restore). */
export async function nonEmptyTargets(target: RestoreTarget): Promise<string[]> {
  const found: string[] = [];
  if (target.kind === 'pglite') {
    const pgliteDir = join(target.dataDir, 'pglite');
    if (((await readdir(pgliteDir).catch(() => [])) as string[]).length > 0)
      found.push(`the embedded database ${pgliteDir}`);
  } else {
    const client = new pg.Client({
      connectionString: requireUrl(target.databaseUrl),
      connectionTimeoutMillis: 5000,
    });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
         where s.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and s.nspname not like 'pg_temp%'
           and s.nspname not like 'pg_toast_temp%' and c.relkind in ('r', 'p', 'v', 'm', 'S')`,
      );
      if (rows[0]!.n > 0)
        found.push(`the database ${redact(target.databaseUrl!)} (it has ${rows[0]!.n} tables or sequences)`);
    } finally {
      await client.end().catch(() => {});
    }
  }
  if (target.storage.kind === 'local') {
    if (target.mediaDir) {
      const names = ((await readdir(target.mediaDir).catch(() => [])) as string[]).filter((n) =>
        [...MEDIA_ROOTS, 'exports'].includes(n),
      );
      for (const name of names) {
        if (((await readdir(join(target.mediaDir, name)).catch(() => [])) as string[]).length > 0)
          found.push(`the media directory ${join(target.mediaDir, name)}`);
      }
    }
  } else {
    for (const root of MEDIA_ROOTS) {
      for await (const { prefix } of target.storage.listPrefixes(root)) {
        found.push(`the bucket (it holds ${prefix}/ and maybe more)`);
        break;
      }
    }
  }
  for (const name of DATA_FILES) {
    if (await stat(join(target.dataDir, name)).catch(() => null)) found.push(join(target.dataDir, name));
  }
  return found;
}

const redact = (url: string) => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
};

/**
 * Restores `file` into empty targets. Refuses, changing nothing, when a target is not empty, when the
 * archive's database is of the other kind, or when any checksum does not match (checked in a first
 * pass over the whole archive, before anything is written).
 */
export async function restoreBackup(file: string, target: RestoreTarget): Promise<RestoreSummary> {
  const busy = await nonEmptyTargets(target);
  if (busy.length > 0) {
    throw new BackupError(
      `Restore refused: it only writes into an empty DATA_DIR and database, and these are not empty: ${busy.join('; ')}. Nothing was changed. Point DATA_DIR (and DATABASE_URL, MEDIA_DIR or S3_BUCKET) at empty ones.`,
    );
  }
  const manifest = await verifyArchive(file);
  if (manifest.database.kind !== target.kind) {
    throw new BackupError(
      manifest.database.kind === 'pglite'
        ? `${file} holds an embedded (PGlite) database: restore it without DATABASE_URL, into an empty DATA_DIR. Nothing was changed.`
        : `${file} holds a PostgreSQL database: restore it with DATABASE_URL set to an empty database. Nothing was changed.`,
    );
  }
  if (target.kind === 'postgres' && manifest.database.pgDumpMajor !== undefined) {
    const restoreMajor = await toolMajor('pg_restore');
    if (restoreMajor < manifest.database.pgDumpMajor) {
      throw new BackupError(
        `pg_restore ${restoreMajor} cannot read a dump made by pg_dump ${manifest.database.pgDumpMajor}: install the PostgreSQL client tools of version ${manifest.database.pgDumpMajor} or newer (Debian/Ubuntu: apt-get install postgresql-client-${manifest.database.pgDumpMajor}). Nothing was changed.`,
      );
    }
  }
  const tmp = await mkdtemp(join(tmpdir(), 'cats-restore-'));
  const expected = new Map<string, string>(
    [manifest.database, ...manifest.media.files, ...manifest.dataFiles].map((f) => [f.name, f.sha256]),
  );
  let mediaFiles = 0;
  try {
    await readArchive(file, async (name, stream) => {
      if (name === 'manifest.json') return drain(stream);
      const path = join(tmp, 'entry');
      const hash = hashing();
      await pipeline(stream, hash, createWriteStream(path, { mode: 0o600 }));
      // The file was checked in the first pass; this catches it changing since.
      if (hash.digest().sha256 !== expected.get(name))
        throw new BackupError(`${name} changed while it was restored`);
      if (name === manifest.database.name) {
        if (target.kind === 'pglite') {
          // PGlite starts from a dumped data directory given whole (loadDataDir), and keeps it in DATA_DIR.
          const client = await openPglite({
            dataDir: join(target.dataDir, 'pglite'),
            loadDataDir: await readFile(path),
          });
          await client.close();
        } else {
          // One transaction: a failure leaves the database as empty as it was.
          await runTool(
            'pg_restore',
            ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', path],
            requireUrl(target.databaseUrl),
          );
        }
        target.log?.('Database restored.');
      } else if (name.startsWith('media/')) {
        const key = name.slice('media/'.length);
        await target.storage.putFile(key, path, contentType(key));
        mediaFiles += 1;
      } else if (name.startsWith('data/')) {
        const dest = join(target.dataDir, name.slice('data/'.length));
        await mkdir(target.dataDir, { recursive: true });
        await writeFile(dest, await readFile(path), { mode: 0o600, flag: 'wx' });
        await chmod(dest, 0o600);
      }
      await rm(path, { force: true });
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return { databaseKind: manifest.database.kind, mediaFiles, createdAt: manifest.createdAt };
}

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  png: 'image/png',
  zip: 'application/zip',
};
const contentType = (key: string) =>
  CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

/** Calls `onEntry` for each file of the tar, one at a time, each stream read to its end. */
async function readArchive(
  file: string,
  onEntry: (name: string, stream: Readable) => Promise<void>,
): Promise<void> {
  const extract = tar.extract();
  const source = createReadStream(file);
  const reading = pipeline(source, extract as unknown as Writable).catch((err: unknown) => {
    throw err instanceof BackupError
      ? err
      : new BackupError(`${file} could not be read as a backup archive: ${(err as Error).message}`);
  });
  try {
    for await (const entry of extract as AsyncIterable<TarEntry>) {
      if (entry.header.type !== 'file') {
        await drain(entry as unknown as Readable);
        continue;
      }
      await onEntry(entry.header.name, entry as unknown as Readable);
    }
  } catch (err) {
    source.destroy();
    await reading.catch(() => {});
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${file} could not be read as a backup archive: ${(err as Error).message}`);
  }
  await reading;
}

async function drain(stream: Readable): Promise<void> {
  for await (const chunk of stream) void chunk;
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
