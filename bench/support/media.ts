/**
 * Real image files for the benchmark, made once and cached under bench/.work/media-<version>:
 * - a dozen post images and four profile pictures, put through the app's own pipeline (WebP variants,
 *   ThumbHash placeholder), which the 100,000 seeded posts share, so every URL in a response resolves;
 * - 12-megapixel JPEGs (4000 x 3000, photo-like texture, camera and GPS EXIF, ~1.6 MB) to upload, each
 *   different, as real uploads are.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { AVATAR_WIDTHS, IMAGE_WIDTHS } from '@cats/contracts';
import { storeImageVariants } from '../../apps/server/src/media/image-pipeline.ts';
import { LocalStorage } from '../../apps/server/src/media/local-storage.ts';
import { catArtFor, catFaceSvg, catSvg, phoneExif } from '../../apps/server/src/seed/cat-art.ts';
import { WORK_DIR } from './paths.ts';

const VERSION = 1;
const POST_IMAGES = 12;
const AVATARS = 4;

export interface BenchMedia {
  /** Media root to copy into a run's MEDIA_DIR. */
  mediaDir: string;
  posts: { prefix: string; width: number; height: number; placeholder: string }[];
  avatars: string[];
  /** Paths of the 12 MP JPEGs. */
  uploads: string[];
}

const UPLOAD_SIZE = { width: 4000, height: 3000, channels: 3 } as const;
let uploadBackground: Promise<Buffer> | undefined;

/**
 * What every 12 MP upload is drawn on, made once per run (raw RGB): a smooth texture under fine grain,
 * as a phone photo's detail costs a JPEG decoder. Made afresh for each photo, with PNG in between, it
 * was most of the ~3.5 s each photo took, 40 s of a fresh clone's bench:ci.
 */
function photoBackground(): Promise<Buffer> {
  uploadBackground ??= (async () => {
    const texture = await sharp({
      create: {
        width: 400,
        height: 300,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .resize(UPLOAD_SIZE.width, UPLOAD_SIZE.height, { kernel: 'cubic' })
      .raw()
      .toBuffer();
    const grain = await sharp({
      create: { ...UPLOAD_SIZE, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 12 } },
    })
      .raw()
      .toBuffer();
    // Compositing adds an alpha band: removed, so the buffer is the RGB that UPLOAD_SIZE describes.
    return sharp(texture, { raw: UPLOAD_SIZE })
      .composite([{ input: grain, raw: UPLOAD_SIZE, blend: 'soft-light' }])
      .removeAlpha()
      .raw()
      .toBuffer();
  })();
  return uploadBackground;
}

/**
 * A 4000 x 3000 JPEG that costs what a phone photo costs: smooth texture, noise, about 1.6 MB. Each is
 * different, as real uploads are: its own exposure, cat and EXIF.
 */
async function photo12mp(i: number): Promise<Buffer> {
  const art = Buffer.from(catSvg(catArtFor(i + 3), 2800));
  return sharp(await photoBackground(), { raw: UPLOAD_SIZE })
    .linear(1, (i % 5) * 8 - 8)
    .composite([{ input: art, left: 600, top: 100, blend: 'over' }])
    .jpeg({ quality: 92, chromaSubsampling: '4:2:0' })
    .withExif(
      phoneExif({
        latitude: 36.72 + i * 0.01,
        longitude: -4.42 - i * 0.01,
        takenAt: new Date(2026, 0, 1 + i),
      }),
    )
    .toBuffer();
}

export async function prepareMedia(opts: {
  uploads: number;
  log?: (line: string) => void;
}): Promise<BenchMedia> {
  const dir = join(WORK_DIR, `media-v${VERSION}`);
  const manifestPath = join(dir, 'manifest.json');
  let manifest: BenchMedia | null = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as BenchMedia)
    : null;
  if (!manifest) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    opts.log?.(`generating ${POST_IMAGES} post images and ${AVATARS} profile pictures`);
    const storage = new LocalStorage(join(dir, 'media'));
    const posts: BenchMedia['posts'] = [];
    for (let i = 0; i < POST_IMAGES; i += 1) {
      // Landscape, portrait and square photos, 1600 px on the long side so every variant is distinct.
      const [w, h] = (
        [
          [1600, 1200],
          [1200, 1600],
          [1600, 1600],
        ] as const
      )[i % 3]!;
      const art = await sharp(Buffer.from(catSvg(catArtFor(i), Math.max(w, h))))
        .resize(w, h, { fit: 'cover' })
        .jpeg({ quality: 88 })
        .toBuffer();
      const stored = await storeImageVariants(storage, art, { kind: 'posts', widths: IMAGE_WIDTHS });
      posts.push({
        prefix: stored.prefix,
        width: stored.width,
        height: stored.height,
        placeholder: stored.placeholder,
      });
    }
    const avatars: string[] = [];
    for (let i = 0; i < AVATARS; i += 1) {
      const png = await sharp(Buffer.from(catFaceSvg(catArtFor(i + 20), 600)))
        .png()
        .toBuffer();
      avatars.push(
        (await storeImageVariants(storage, png, { kind: 'avatars', widths: AVATAR_WIDTHS, square: true }))
          .prefix,
      );
    }
    manifest = { mediaDir: join(dir, 'media'), posts, avatars, uploads: [] };
  }
  // 12 MP uploads are made on demand (each takes a second or two to encode).
  mkdirSync(join(dir, 'uploads'), { recursive: true });
  if (manifest.uploads.length < opts.uploads) {
    opts.log?.(`generating ${opts.uploads - manifest.uploads.length} 12 MP JPEGs`);
  }
  for (let i = manifest.uploads.length; i < opts.uploads; i += 1) {
    const path = join(dir, 'uploads', `photo-${i}.jpg`);
    writeFileSync(path, await photo12mp(i));
    manifest.uploads.push(path);
  }
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  return manifest;
}

/** Copies the shared variants into a run's media directory (the server's orphan sweep keeps them: rows point at them). */
export function installMedia(media: BenchMedia, mediaDir: string): void {
  mkdirSync(mediaDir, { recursive: true });
  cpSync(media.mediaDir, mediaDir, { recursive: true });
}
