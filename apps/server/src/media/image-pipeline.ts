import { randomBytes } from 'node:crypto';
import exifr from 'exifr';
import pLimit, { type LimitFunction } from 'p-limit';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { MAX_UPLOAD_ASPECT_RATIO, MAX_UPLOAD_PIXELS, MAX_UPLOAD_SIDE } from '@cats/contracts';
import { HttpError } from '../lib/http-errors.ts';
import type { MediaStorage } from './storage.ts';
import type { SpooledFile } from './upload-spool.ts';
import { variantKey } from './urls.ts';

export const UNSUPPORTED_IMAGE_MESSAGE = 'Only JPEG and PNG images are accepted';
export const UNREADABLE_IMAGE_MESSAGE = 'The image could not be read';
export const STORE_FAILED_MESSAGE = 'Could not store the image, please try again';
export const TOO_MANY_PIXELS_MESSAGE = `The image is too large (at most ${MAX_UPLOAD_PIXELS / 1_000_000} megapixels)`;
export const TOO_LONG_SIDE_MESSAGE = `The image is too large (at most ${MAX_UPLOAD_SIDE} pixels on its longest side)`;
export const TOO_NARROW_MESSAGE = `The image is too narrow (its long side may be at most ${MAX_UPLOAD_ASPECT_RATIO} times its short side)`;
export const TOO_SLOW_MESSAGE = 'The image took too long to process, please send a smaller one';

// One libvips thread per operation and no operation cache (every upload is new): parallelism comes
// from the limiter below, which runs IMAGE_CONCURRENCY images at a time, each one operation at a time.
// So a burst of uploads takes IMAGE_CONCURRENCY cores and decoded images of memory, no more.
sharp.concurrency(1);
sharp.cache(false);

let limit: LimitFunction = pLimit(2);
/** Seconds one image may take in its slot, all steps together (config.IMAGE_TIMEOUT_SECONDS). */
let timeoutSeconds = 5;

/** Called once at start-up with config.IMAGE_CONCURRENCY. */
export function setImageConcurrency(concurrency: number): void {
  limit = pLimit(concurrency);
}

/** Called once at start-up with config.IMAGE_TIMEOUT_SECONDS. */
export function setImageTimeout(seconds: number): void {
  timeoutSeconds = seconds;
}

/** Images being encoded now and waiting for a slot (for tests and diagnostics). */
export function imagePipelineLoad(): { active: number; pending: number; concurrency: number } {
  return { active: limit.activeCount, pending: limit.pendingCount, concurrency: limit.concurrency };
}

/** One image's times: waiting for a slot, then encoding in it (seconds). */
export interface ImageTimings {
  waitSeconds: number;
  processSeconds: number;
}
const timingListeners = new Set<(timings: ImageTimings) => void>();

/**
 * Calls `listener` after each image the pipeline encoded or refused once in its slot; returns a function
 * that stops it. The limiter is one per process, the listeners one per app (metrics).
 */
export function onImageProcessed(listener: (timings: ImageTimings) => void): () => void {
  timingListeners.add(listener);
  return () => timingListeners.delete(listener);
}

/** Runs one image's encoding in a slot of the limiter, timing its wait and its work for the listeners. */
function encodeInSlot(input: Buffer | string, opts: StoreImageOptions) {
  const queuedAt = performance.now();
  return limit(async () => {
    const startedAt = performance.now();
    try {
      return await encodeVariants(input, opts);
    } finally {
      const timings = {
        waitSeconds: (startedAt - queuedAt) / 1000,
        processSeconds: (performance.now() - startedAt) / 1000,
      };
      for (const listener of timingListeners) listener(timings);
    }
  });
}

export type ImageType = 'jpeg' | 'png';

/** An image's bytes: in memory (seed, tests) or in an upload's temporary file (requests). */
export type ImageSource = Buffer | SpooledFile;

/** What sharp and exifr read: the bytes themselves or the file's path. */
const readable = (source: ImageSource): Buffer | string => (Buffer.isBuffer(source) ? source : source.path);
const firstBytes = (source: ImageSource): Buffer => (Buffer.isBuffer(source) ? source : source.head);
/** The image's size in bytes. */
export const byteLength = (source: ImageSource): number =>
  Buffer.isBuffer(source) ? source.length : source.size;

/** The type from the bytes themselves; a name or declared content type proves nothing. */
export function detectImageType(input: Buffer): ImageType | null {
  if (input.length >= 3 && input[0] === 0xff && input[1] === 0xd8 && input[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (input.length >= png.length && png.every((byte, i) => input[i] === byte)) return 'png';
  return null;
}

export interface StoreImageOptions {
  kind: 'posts' | 'avatars';
  /** Variant widths; each is fitted inside width x width, never enlarged. */
  widths: readonly number[];
  /** Centre-crop to a square first (profile pictures). */
  square?: boolean;
}

export interface StoredImage {
  /** Storage prefix `posts/<32 random hex digits>`; variants are `<prefix>/<width>.webp`. */
  prefix: string;
  /** Size of the largest variant (upright, cropped when square): the aspect ratio cards reserve. */
  width: number;
  height: number;
  /** ThumbHash, base64. */
  placeholder: string;
}

const unreadable = () => new HttpError(400, UNREADABLE_IMAGE_MESSAGE);
const tooSlow = () => new HttpError(422, TOO_SLOW_MESSAGE);
/** sharp's own timeout error ('timeout: 40% complete ...'), raised when libvips kills the image. */
const isTimeout = (err: unknown) => err instanceof Error && err.message.startsWith('timeout');

/**
 * One image's time budget across its steps. sharp's timeout counts whole seconds from when libvips
 * opens the input (not the wait for a thread), so each step gets what is left, rounded up: an image
 * stops at most about a second past its budget, and the slot is free for the next one.
 */
function deadline(seconds: number) {
  const end = performance.now() + seconds * 1000;
  return {
    /** The `timeout` option for the next sharp step; refuses the image when nothing is left. */
    next(): { seconds: number } {
      const left = end - performance.now();
      if (left <= 0) throw tooSlow();
      return { seconds: Math.max(1, Math.ceil(left / 1000)) };
    },
  };
}

/**
 * Refuses an image from its header alone, before one pixel is decoded: too many pixels (413), a side
 * too long or a shape too narrow (422). Decoding time follows the rows as much as the pixels: a 76 KB
 * PNG of 1 x 39,000,000 passed the pixel limit and held an image slot for 27 s (issue 46).
 */
function checkDimensions(width: number, height: number) {
  if (width * height > MAX_UPLOAD_PIXELS) throw new HttpError(413, TOO_MANY_PIXELS_MESSAGE);
  if (Math.max(width, height) > MAX_UPLOAD_SIDE) throw new HttpError(422, TOO_LONG_SIDE_MESSAGE);
  if (Math.max(width, height) > MAX_UPLOAD_ASPECT_RATIO * Math.min(width, height)) {
    throw new HttpError(422, TOO_NARROW_MESSAGE);
  }
}

async function encodeVariants(input: Buffer | string, opts: StoreImageOptions) {
  try {
    return await decodeAndEncode(input, opts, deadline(timeoutSeconds));
  } catch (err) {
    // Any step past its time answers 422 with a clear message; nothing has been stored yet.
    if (isTimeout(err)) throw tooSlow();
    throw err;
  }
}

async function decodeAndEncode(
  input: Buffer | string,
  opts: StoreImageOptions,
  time: ReturnType<typeof deadline>,
) {
  let meta: Metadata;
  try {
    // Header only: the pixel limit is checked before anything is decoded.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable();
  }
  if (!meta.width || !meta.height || (meta.format !== 'jpeg' && meta.format !== 'png')) throw unreadable();
  checkDimensions(meta.width, meta.height);

  const largest = Math.max(...opts.widths);
  let base: { data: Buffer; info: OutputInfo };
  try {
    // Decode once (JPEG shrink-on-load keeps a 12 MP photo small), turn upright by its EXIF orientation,
    // and bring it to the largest size we serve; every variant is derived from this buffer.
    base = await sharp(input, { limitInputPixels: MAX_UPLOAD_PIXELS, failOn: 'truncated' })
      .timeout(time.next())
      .autoOrient()
      .resize({
        width: largest,
        height: largest,
        fit: opts.square ? 'outside' : 'inside',
        withoutEnlargement: true,
      })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    if (isTimeout(err)) throw err;
    throw unreadable();
  }

  let { width, height } = base.info;
  const { channels } = base.info;
  let pixels = sharp(base.data, { raw: { width, height, channels } });
  if (opts.square && width !== height) {
    const side = Math.min(width, height);
    const cropped = await pixels
      .timeout(time.next())
      .extract({
        left: Math.floor((width - side) / 2),
        top: Math.floor((height - side) / 2),
        width: side,
        height: side,
      })
      .raw()
      .toBuffer();
    width = side;
    height = side;
    pixels = sharp(cropped, { raw: { width, height, channels } });
  }

  // sharp writes no metadata unless asked (no keepExif/keepMetadata here): EXIF, GPS, XMP, IPTC and
  // ICC are all dropped, and the pixels are already upright.
  // Widths at or above the image's own size give the same picture: encode it once and store it under
  // each of those widths (small uploads, and the 1600 variant of anything under 1600 px).
  const longest = Math.max(width, height);
  const encodings = new Map<number, Buffer>();
  const encode = (target: number) =>
    pixels
      .clone()
      .timeout(time.next())
      .resize({ width: target, height: target, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: target <= 100 ? 70 : 80, effort: 2 })
      .toBuffer();
  // One encoding after the other: the slot this image holds is one core's worth of work. Run side by
  // side (libuv's four threads), one upload took both cores of a 2-core machine and the feed's p99 during
  // a burst of eight rose from ~225 to ~300 ms; one upload alone is ~35 ms slower this way
  // (docs/performance.md, "Uploads").
  const variants: { width: number; body: Buffer }[] = [];
  for (const w of opts.widths) {
    const target = Math.min(w, longest);
    let body = encodings.get(target);
    if (!body) encodings.set(target, (body = await encode(target)));
    variants.push({ width: w, body });
  }

  const thumb = await pixels
    .clone()
    .timeout(time.next())
    .resize({ width: 100, height: 100, fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const placeholder = Buffer.from(rgbaToThumbHash(thumb.info.width, thumb.info.height, thumb.data)).toString(
    'base64',
  );
  return { variants, width, height, placeholder };
}

/**
 * A new storage prefix for one upload: 128 random bits. Not the upload's hash, nor the re-encoded
 * output's (sharp's output is as deterministic as its input): a key computed from the bytes would let
 * anyone holding a photo test whether it was ever posted, by requesting its URL (issue 23). So every
 * upload gets files of its own, even the same photo twice.
 */
export const newMediaPrefix = (kind: StoreImageOptions['kind']): string =>
  `${kind}/${randomBytes(16).toString('hex')}`;

/**
 * Checks an upload by its bytes, re-encodes it to WebP variants without metadata and stores them under
 * a new random prefix (newMediaPrefix). Throws HttpError 415 (not JPEG/PNG), 413 (over 40 MP), 422 (a side
 * over MAX_UPLOAD_SIDE, a shape narrower than MAX_UPLOAD_ASPECT_RATIO, or over its time limit) or 400
 * (truncated or corrupt); nothing is stored when it throws. Runs under a global concurrency limit.
 */
export async function storeImageVariants(
  storage: MediaStorage,
  input: ImageSource,
  opts: StoreImageOptions,
): Promise<StoredImage> {
  if (!detectImageType(firstBytes(input))) throw new HttpError(415, UNSUPPORTED_IMAGE_MESSAGE);
  if (opts.widths.length === 0) throw new Error('storeImageVariants needs at least one width');
  const encoded = await encodeInSlot(readable(input), opts);
  const prefix = newMediaPrefix(opts.kind);
  const writes = await Promise.allSettled(
    encoded.variants.map((v) => storage.put(variantKey(prefix, v.width), v.body, 'image/webp')),
  );
  const failed = writes.find((w) => w.status === 'rejected');
  if (failed) {
    // Every write has settled, so nothing lands after the clean-up. The prefix is this upload's alone,
    // so it goes (the orphan sweep catches a clean-up that fails too). The client gets a clear,
    // retryable answer.
    await storage.deletePrefix(prefix).catch(() => {});
    throw Object.assign(new HttpError(503, STORE_FAILED_MESSAGE), { cause: failed.reason });
  }
  return { prefix, width: encoded.width, height: encoded.height, placeholder: encoded.placeholder };
}

/** GPS coordinates from a photo's EXIF, or null when it has none or they are out of range. */
export async function readGps(input: ImageSource): Promise<{ latitude: number; longitude: number } | null> {
  try {
    // From a path exifr reads only the chunks that hold the EXIF block, not the whole file.
    const gps = (await exifr.gps(readable(input))) as { latitude?: unknown; longitude?: unknown } | undefined;
    const latitude = gps?.latitude;
    const longitude = gps?.longitude;
    if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
    return { latitude, longitude };
  } catch {
    return null;
  }
}
