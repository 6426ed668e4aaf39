/**
 * Draws the installed app's icons (issue 28) from apps/web/public/favicon.svg: 192 and 512 px "any"
 * icons (the cat on a light rounded square) and a 512 px maskable one, whose cat stays inside the
 * central 80 % safe zone whatever shape Android cuts. Run again after changing the logo:
 * `npx tsx scripts/make-app-icons.ts`; the PNGs are committed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

const PUBLIC = join(import.meta.dirname, '../apps/web/public');
const logo = readFileSync(join(PUBLIC, 'favicon.svg'), 'utf8');
const BACKGROUND = '#f3f0fa';

async function icon(size: number, logoShare: number, radius: number, file: string) {
  const logoSize = Math.round(size * logoShare);
  const cat = await sharp(Buffer.from(logo), { density: 72 * (logoSize / 64) })
    .resize(logoSize, logoSize)
    .png()
    .toBuffer();
  const square = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="${size}" height="${size}" rx="${radius}" fill="${BACKGROUND}"/></svg>`,
  );
  await sharp(square)
    .composite([{ input: cat, gravity: 'center' }])
    .png({ compressionLevel: 9 })
    .toFile(join(PUBLIC, 'icons', file));
}

await icon(192, 0.78, 36, 'app-192.png');
await icon(512, 0.78, 96, 'app-512.png');
// Maskable: a full square (the platform cuts the shape) and the cat within the safe zone.
await icon(512, 0.62, 0, 'app-maskable-512.png');
