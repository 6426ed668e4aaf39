/**
 * The backup archive's format (an uncompressed tar, the manifest last): what it holds, writing its
 * entries with their sizes and checksums, and reading them back one at a time.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { PRIVATE_FILE_MODE } from '../../lib/private-files.ts';
import { BackupError } from './backup-error.ts';
import type { MigrationLevel } from './backup.repository.ts';

type TarPack = ReturnType<typeof tar.pack>;
type TarEntry = Readable & { header: tar.Header };

export const BACKUP_FORMAT = 'neighbourhood-cats-backup';
export const BACKUP_FORMAT_VERSION = 1;
/** Generated secrets kept in DATA_DIR (secrets.ts, push/vapid-keys.ts): sessions and push go on after a restore. */
export const DATA_FILES = ['secrets.json', 'vapid.json'] as const;

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
  migrations: MigrationLevel;
  media: { storage: 'local' | 's3'; files: (ArchivedFile & { key: string })[] };
  dataFiles: ArchivedFile[];
}

/** Counts and hashes what passes through. */
export function hashing(): Transform & { digest(): { size: number; sha256: string } } {
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

export async function addFile(
  pack: TarPack,
  name: string,
  path: string,
  size: number,
  outputError: () => unknown,
): Promise<ArchivedFile> {
  return { name, ...(await addEntry(pack, name, createReadStream(path), size, outputError)) };
}

/** A media object into the archive; one of unknown size goes through a temporary file first. */
export async function addStream(
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

/** Calls `onEntry` for each file of the tar, one at a time, each stream read to its end. */
export async function readArchive(
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

export async function drain(stream: Readable): Promise<void> {
  for await (const chunk of stream) void chunk;
}

export async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
