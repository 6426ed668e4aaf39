import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio } from 'thumbhash';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { AVATAR_WIDTHS, IMAGE_WIDTHS } from '@cats/contracts';
import { fixture } from '../../test/fixtures/images.ts';
import { HttpError } from '../lib/http-errors.ts';
import { detectImageType, imagePipelineLoad, readGps, storeImageVariants } from './image-pipeline.ts';
import { LocalStorage } from './local-storage.ts';
import { UploadSpool } from './upload-spool.ts';
import { MEDIA_KEY_PATTERN } from './storage.ts';
import { variantKey } from './urls.ts';

const dir = mkdtempSync(join(tmpdir(), 'cats-pipeline-'));
const storage = new LocalStorage(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function variant(prefix: string, width: number) {
  const object = await storage.get(variantKey(prefix, width));
  const chunks: Buffer[] = [];
  for await (const chunk of object!.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('detectImageType', () => {
  it('goes by the bytes, not the name', () => {
    expect(detectImageType(fixture('photo-gps.jpg'))).toBe('jpeg');
    expect(detectImageType(fixture('png-as.jpg'))).toBe('png');
    expect(detectImageType(fixture('text.jpg'))).toBeNull();
    expect(detectImageType(fixture('cat.webp'))).toBeNull();
    expect(detectImageType(Buffer.alloc(0))).toBeNull();
  });
});

describe('readGps', () => {
  it('reads a phone photo GPS and nothing from images without it', async () => {
    expect(await readGps(fixture('photo-gps.jpg'))).toEqual({ latitude: 36.7213, longitude: -4.4214 });
    expect(await readGps(fixture('photo-no-gps.jpg'))).toBeNull();
    expect(await readGps(fixture('cat.png'))).toBeNull();
    expect(await readGps(fixture('text.jpg'))).toBeNull();
  });
});

describe('storeImageVariants', () => {
  it('writes WebP variants under a random prefix, with a placeholder of the right shape', async () => {
    const stored = await storeImageVariants(storage, fixture('photo-gps.jpg'), {
      kind: 'posts',
      widths: IMAGE_WIDTHS,
    });
    expect(stored.prefix).toMatch(/^posts\/[a-f0-9]{32}$/);
    expect([stored.width, stored.height]).toEqual([1600, 1200]);
    expect(
      Math.abs(thumbHashToApproximateAspectRatio(Buffer.from(stored.placeholder, 'base64')) - 4 / 3),
    ).toBeLessThan(0.1);
    const files = readdirSync(join(dir, stored.prefix)).sort();
    expect(files).toEqual(IMAGE_WIDTHS.map((w) => `${w}.webp`).sort());
    for (const w of IMAGE_WIDTHS) {
      expect(variantKey(stored.prefix, w)).toMatch(MEDIA_KEY_PATTERN);
      const meta = await sharp(await variant(stored.prefix, w)).metadata();
      expect(meta.format).toBe('webp');
      expect([meta.width, meta.height]).toEqual([w, (w * 3) / 4]);
      expect([meta.exif, meta.xmp, meta.iptc, meta.icc]).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    }
    // Same bytes, a prefix of its own: nothing about the key follows from the image (issue 23).
    const again = await storeImageVariants(storage, fixture('photo-gps.jpg'), {
      kind: 'posts',
      widths: IMAGE_WIDTHS,
    });
    expect(again.prefix).not.toBe(stored.prefix);
    expect((await variant(again.prefix, 400)).equals(await variant(stored.prefix, 400))).toBe(true);
  });

  it('reads an upload from its temporary file as it reads the same bytes from memory', async () => {
    const spool = await UploadSpool.open(dir);
    try {
      const photo = fixture('photo-gps.jpg');
      const file = await spool.receive(Readable.from([photo]));
      const opts = { kind: 'posts', widths: IMAGE_WIDTHS } as const;
      const fromFile = await storeImageVariants(storage, file, opts);
      const fromMemory = await storeImageVariants(storage, photo, opts);
      expect({ ...fromFile, prefix: '' }).toEqual({ ...fromMemory, prefix: '' });
      expect((await variant(fromFile.prefix, 1600)).equals(await variant(fromMemory.prefix, 1600))).toBe(
        true,
      );
      expect(await readGps(file)).toEqual({ latitude: 36.7213, longitude: -4.4214 });

      const text = await spool.receive(Readable.from([fixture('text.jpg')]));
      const err = await storeImageVariants(storage, text, opts).catch((e: unknown) => e);
      expect((err as HttpError).statusCode).toBe(415);
      const truncated = await spool.receive(Readable.from([fixture('truncated.jpg')]));
      const unreadable = await storeImageVariants(storage, truncated, opts).catch((e: unknown) => e);
      expect((unreadable as HttpError).statusCode).toBe(400);
    } finally {
      await spool.close();
    }
  });

  it('centre-crops square profile pictures', async () => {
    const stored = await storeImageVariants(storage, fixture('photo-no-gps.jpg'), {
      kind: 'avatars',
      widths: AVATAR_WIDTHS,
      square: true,
    });
    expect(stored.prefix).toMatch(/^avatars\//);
    expect([stored.width, stored.height]).toEqual([300, 300]);
    for (const w of AVATAR_WIDTHS) {
      const meta = await sharp(await variant(stored.prefix, w)).metadata();
      expect([meta.width, meta.height]).toEqual([w, w]);
    }
  });

  it('never enlarges a small image', async () => {
    const small = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const stored = await storeImageVariants(storage, small, { kind: 'posts', widths: IMAGE_WIDTHS });
    expect([stored.width, stored.height]).toEqual([120, 80]);
    expect((await sharp(await variant(stored.prefix, 1600)).metadata()).width).toBe(120);
    expect((await sharp(await variant(stored.prefix, 64)).metadata()).width).toBe(64);
  });

  it.each([
    ['text.jpg', 415],
    ['cat.webp', 415],
    ['truncated.jpg', 400],
    ['corrupt.jpg', 400],
    ['pixel-flood.png', 413],
  ] as const)('refuses %s with %i and writes nothing', async (name, status) => {
    const before = readdirSync(dir, { recursive: true }).length;
    const err = await storeImageVariants(storage, fixture(name), {
      kind: 'posts',
      widths: IMAGE_WIDTHS,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).statusCode).toBe(status);
    expect(readdirSync(dir, { recursive: true }).length).toBe(before);
  });

  it('encodes 8 simultaneous 12 MP photos two at a time, one operation each, in bounded memory, without stalling the event loop', async () => {
    const base = await sharp({
      create: {
        width: 4000,
        height: 3000,
        channels: 3,
        background: '#8a6a4f',
        noise: { type: 'gaussian', mean: 120, sigma: 40 },
      },
    })
      .jpeg({ quality: 85 })
      .toBuffer();
    // Eight different files (bytes after the end-of-image marker are ignored by decoders).
    const uploads = Array.from({ length: 8 }, (_, i) => Buffer.concat([base, Buffer.from(`upload ${i}`)]));
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    let activePeak = 0;
    let libvipsPeak = 0;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      activePeak = Math.max(activePeak, imagePipelineLoad().active);
      // Operations libvips is running now: one per image in its slot, never an image's variants at once.
      libvipsPeak = Math.max(libvipsPeak, sharp.counters().process);
    }, 5);
    delay.enable();
    const started = Date.now();
    const results = await Promise.all(
      uploads.map((u) => storeImageVariants(storage, u, { kind: 'posts', widths: IMAGE_WIDTHS })),
    );
    delay.disable();
    clearInterval(sampler);
    expect(new Set(results.map((r) => r.prefix)).size).toBe(8);
    expect(results.every((r) => r.width === 1600 && r.height === 1200)).toBe(true);
    expect(activePeak).toBeLessThanOrEqual(imagePipelineLoad().concurrency);
    expect(activePeak).toBeGreaterThanOrEqual(1);
    expect(libvipsPeak).toBeGreaterThanOrEqual(1);
    expect(libvipsPeak).toBeLessThanOrEqual(imagePipelineLoad().concurrency);
    // Measured here: about +200-260 MB (mostly malloc arenas libvips keeps), against about +430 MB
    // with all eight decoding at once.
    expect((rssPeak - rssBefore) / 1024 / 1024).toBeLessThan(350);
    // The work happens off the main thread: the event loop keeps answering (loose bound: the test
    // machine's two cores are shared).
    expect(delay.mean / 1e6).toBeLessThan(100);
    console.info(
      `8 x 12 MP: ${Date.now() - started} ms, peak RSS +${Math.round((rssPeak - rssBefore) / 1024 / 1024)} MB, ` +
        `event loop max ${Math.round(delay.max / 1e6)} ms p99 ${Math.round(delay.percentile(99) / 1e6)} mean ${Math.round(delay.mean / 1e6)}, active peak ${activePeak}, libvips peak ${libvipsPeak}, load ${os.loadavg()[0]}`,
    );
  }, 120_000);
});
