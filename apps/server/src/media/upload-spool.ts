import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_UPLOAD_BYTES } from '@cats/contracts';
import { HttpError } from '../lib/http-errors.ts';

export const FILE_TOO_LARGE_MESSAGE = `The image is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`;

/**
 * An upload received into a temporary file. The first bytes are taken while the bytes pass, so the
 * image pipeline can tell the type without a second read.
 */
export interface SpooledFile {
  readonly path: string;
  readonly size: number;
  /** The first HEAD_BYTES bytes (fewer when the file is shorter): enough to tell the type. */
  readonly head: Buffer;
}

const HEAD_BYTES = 64;
const SPOOL_PREFIX = 'cats-uploads-';
/** `cats-uploads-<pid>-XXXXXX`, as `open` names it. */
const SPOOL_NAME = new RegExp(`^${SPOOL_PREFIX}(\\d+)-`);

/** Whether a process with this id runs on this host (EPERM: it runs, as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function removeDeadSpools(parent: string): Promise<void> {
  const entries = await readdir(parent).catch(() => [] as string[]);
  await Promise.all(
    entries.map(async (name) => {
      const pid = Number(SPOOL_NAME.exec(name)?.[1]);
      if (!Number.isSafeInteger(pid) || pid === process.pid || isRunning(pid)) return;
      await rm(join(parent, name), { recursive: true, force: true }).catch(() => {});
    }),
  );
}

/**
 * Temporary files for uploads in transit, in a directory of their own under the system's temporary
 * directory (TMPDIR). Why not memory: eight concurrent 12 MP photos held as Buffers are ~40 MB of the
 * V8 heap's external memory (twice that while multipart's chunks are concatenated), which stays
 * resident until a major collection; libvips reads the file itself, a strip at a time.
 */
export class UploadSpool {
  /** Files received and not yet discarded (metrics: uploads in transit). */
  readonly #held = new Set<string>();
  private constructor(readonly dir: string) {}

  /** Uploads received into this spool and not yet discarded. */
  get inTransit(): number {
    return this.#held.size;
  }

  /**
   * A new directory `cats-uploads-<pid>-XXXXXX` under `parent`. Directories of processes that no longer
   * run (a crash or kill -9 leaves one, with the uploads that were in flight) are removed first.
   */
  static async open(parent: string = tmpdir()): Promise<UploadSpool> {
    await removeDeadSpools(parent);
    return new UploadSpool(await mkdtemp(join(parent, `${SPOOL_PREFIX}${process.pid}-`)));
  }

  /**
   * Writes the stream to a new file. When the stream or the write fails, the file is removed and the
   * error is rethrown. A multipart file stream that its size limit cut short (busboy ends it and sets
   * `truncated`) is refused with 413 and removed too.
   */
  async receive(stream: Readable & { truncated?: boolean }): Promise<SpooledFile> {
    const path = join(this.dir, randomUUID());
    let size = 0;
    const heads: Buffer[] = [];
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        // A copy: the chunk itself may be a slice of a larger pooled buffer kept alive by the view.
        if (size < HEAD_BYTES) heads.push(Buffer.from(chunk.subarray(0, HEAD_BYTES - size)));
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      // Recreated if missing: another host's instance sharing TMPDIR may have taken this pid for dead.
      // Synchronous (microseconds when it exists) so that the stream has its listeners before any await.
      mkdirSync(this.dir, { recursive: true });
      await pipeline(stream, tap, createWriteStream(path, { flags: 'wx' }));
      if (stream.truncated) throw new HttpError(413, FILE_TOO_LARGE_MESSAGE);
    } catch (err) {
      await rm(path, { force: true });
      throw err;
    }
    this.#held.add(path);
    return { path, size, head: Buffer.concat(heads) };
  }

  /** Removes an upload's file; safe to call twice. */
  async discard(file: SpooledFile | null | undefined): Promise<void> {
    if (!file) return;
    this.#held.delete(file.path);
    await rm(file.path, { force: true });
  }

  /** Removes the directory with anything still in it (the server is closing). */
  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
