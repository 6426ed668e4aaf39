import { createReadStream } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../lib/private-files.ts';
import type { MediaStorage } from './storage.ts';
import { assertMediaKey, isPrefixedMediaKey, MEDIA_PREFIX_PATTERN, MEDIA_ROOTS } from './storage.ts';

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  png: 'image/png',
  zip: 'application/zip',
};

/** Local disk under DATA_DIR/media. Writes go to a temp file then rename, so a crash never leaves half a file. */
export class LocalStorage implements MediaStorage {
  readonly kind = 'local' as const;
  constructor(private readonly root: string) {}

  private path(key: string): string {
    assertMediaKey(key);
    return join(this.root, key);
  }

  async put(key: string, body: Buffer): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = `${target}.${randomUUID()}.tmp`;
    await writeFile(temp, body, { mode: PRIVATE_FILE_MODE });
    await rename(temp, target);
  }

  async putFile(key: string, path: string): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = `${target}.${randomUUID()}.tmp`;
    // A copy, not a rename: the source usually sits on another file system (the temporary directory).
    // copyFile gives the copy the source's mode whatever the umask, hence the chmod.
    await copyFile(path, temp);
    await chmod(temp, PRIVATE_FILE_MODE);
    await rename(temp, target);
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async get(key: string) {
    const target = this.path(key);
    try {
      const info = await stat(target);
      const ext = key.slice(key.lastIndexOf('.') + 1);
      return {
        body: createReadStream(target),
        contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
        size: info.size,
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.path(key));
      return true;
    } catch {
      return false;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (!MEDIA_PREFIX_PATTERN.test(prefix)) throw new Error(`Invalid media prefix: ${prefix}`);
    await rm(join(this.root, prefix), { recursive: true, force: true });
  }

  async probe(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: PRIVATE_DIR_MODE });
    // A name no media key can have (MEDIA_KEY_PATTERN), removed at once.
    const probe = join(this.root, `.ready-probe-${randomUUID()}`);
    await writeFile(probe, 'ok');
    await unlink(probe);
  }

  async listKeys(prefix: string): Promise<string[]> {
    if (!MEDIA_PREFIX_PATTERN.test(prefix)) throw new Error(`Invalid media prefix: ${prefix}`);
    const names = await readdir(join(this.root, prefix)).catch(() => [] as string[]);
    // Half-written files (`*.tmp`, renamed into place once complete) are not part of the prefix yet.
    return names
      .map((name) => `${prefix}/${name}`)
      .filter(isPrefixedMediaKey)
      .sort();
  }

  async *listPrefixes(root: string): AsyncIterable<{ prefix: string; modifiedAt: Date }> {
    if (!(MEDIA_ROOTS as readonly string[]).includes(root)) throw new Error(`Invalid media root: ${root}`);
    let names: string[];
    try {
      names = await readdir(join(this.root, root));
    } catch {
      return;
    }
    for (const name of names) {
      const info = await stat(join(this.root, root, name)).catch(() => null);
      if (info?.isDirectory()) yield { prefix: `${root}/${name}`, modifiedAt: info.mtime };
    }
  }
}
