/**
 * Restoring a backup (issue 29): the archive checked whole against its manifest, then written into an
 * empty DATA_DIR, database and media storage.
 */
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { migrationsFolder } from '../../db/client.ts';
import { openPglite } from '../../db/pglite-thread.ts';
import { MEDIA_ROOTS, type MediaStorage } from '../../media/storage.ts';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  DATA_FILES,
  drain,
  hashing,
  readArchive,
  text,
  type ArchivedFile,
  type BackupManifest,
} from './backup-archive.ts';
import { BackupError } from './backup-error.ts';
import { requireUrl, runTool, toolMajor } from './pg-tools.ts';

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
