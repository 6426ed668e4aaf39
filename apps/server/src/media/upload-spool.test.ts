import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../test/fixtures/images.ts';
import { HttpError } from '../lib/http-errors.ts';
import { FILE_TOO_LARGE_MESSAGE, UploadSpool } from './upload-spool.ts';

let parent: string;
let spool: UploadSpool;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'spool-test-'));
  spool = await UploadSpool.open(parent);
});
afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

/** The photo in uneven chunks, as a socket delivers it. */
function chunked(bytes: Buffer, size = 4099): Readable {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(bytes.subarray(at, at + size));
  return Readable.from(parts);
}

describe('UploadSpool', () => {
  it('counts the uploads it holds until each is discarded, once (the uploads-in-transit metric)', async () => {
    const start = spool.inTransit;
    const first = await spool.receive(chunked(Buffer.from('first')));
    const second = await spool.receive(chunked(Buffer.from('second')));
    expect(spool.inTransit).toBe(start + 2);
    await spool.discard(first);
    await spool.discard(first);
    expect(spool.inTransit).toBe(start + 1);
    await spool.discard(second);
    expect(spool.inTransit).toBe(start);
  });

  it('writes the bytes to a file of its own and takes their size and first bytes on the way', async () => {
    const photo = fixture('photo-gps.jpg');
    const file = await spool.receive(chunked(photo, 7));
    expect(file.path.startsWith(spool.dir)).toBe(true);
    expect(readFileSync(file.path).equals(photo)).toBe(true);
    expect(file.size).toBe(photo.length);
    expect(file.head.equals(photo.subarray(0, 64))).toBe(true);
    await spool.discard(file);
    expect(existsSync(file.path)).toBe(false);
    await spool.discard(file); // a second discard is harmless
  });

  it('keeps a short file whole, and an empty one as empty', async () => {
    const short = await spool.receive(Readable.from([Buffer.from([0xff, 0xd8])]));
    expect(short.head).toEqual(Buffer.from([0xff, 0xd8]));
    expect(short.size).toBe(2);
    const empty = await spool.receive(Readable.from([]));
    expect(empty.size).toBe(0);
    expect(empty.head.length).toBe(0);
    await Promise.all([spool.discard(short), spool.discard(empty)]);
    expect(readdirSync(spool.dir)).toEqual([]);
  });

  it('removes the file and rethrows when the stream fails part way', async () => {
    const stream = new PassThrough();
    const receiving = spool.receive(stream);
    stream.write(fixture('photo-gps.jpg').subarray(0, 1000));
    setImmediate(() => stream.destroy(new Error('Part terminated early')));
    await expect(receiving).rejects.toThrow('Part terminated early');
    expect(readdirSync(spool.dir)).toEqual([]);
  });

  it('refuses a stream its size limit cut short with 413 and removes the file', async () => {
    // busboy ends a file stream at the limit and marks it truncated.
    const stream = Object.assign(Readable.from([Buffer.alloc(1024)]), { truncated: true });
    const err = await spool.receive(stream).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ statusCode: 413, message: FILE_TOO_LARGE_MESSAGE });
    expect(readdirSync(spool.dir)).toEqual([]);
  });

  it('removes its directory, with anything left in it, when closed', async () => {
    const own = await UploadSpool.open(parent);
    await own.receive(Readable.from([Buffer.from('left behind by a crash')]));
    await own.close();
    expect(existsSync(own.dir)).toBe(false);
  });

  it('removes the directories of processes that no longer run, and only those, when one opens', async () => {
    const own = await mkdtemp(join(tmpdir(), 'spool-sweep-'));
    // Linux pids stop at 2^22: this one cannot be running.
    const dead = join(own, 'cats-uploads-999999999-a1b2c3');
    const live = join(own, `cats-uploads-${process.ppid}-d4e5f6`);
    const other = join(own, 'cats-uploads-notapid');
    for (const dir of [dead, live, other]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'upload'), 'in flight');
    }
    const opened = await UploadSpool.open(own);
    expect(existsSync(dead)).toBe(false);
    expect([live, other].every((dir) => existsSync(join(dir, 'upload')))).toBe(true);
    expect(opened.dir).toMatch(new RegExp(`cats-uploads-${process.pid}-`));

    // Another host sharing the directory may have taken our pid for dead: the next upload recreates it.
    rmSync(opened.dir, { recursive: true });
    const file = await opened.receive(Readable.from([Buffer.from([0xff, 0xd8, 0xff])]));
    expect(readFileSync(file.path)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    await rm(own, { recursive: true, force: true });
  });
});
