import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** One JPEG APP1 segment (at most 65533 payload bytes). */
function app1(payload: Buffer): Buffer {
  if (payload.length > 65533) throw new Error('APP1 payload too long');
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** Inserts segments right after the JPEG's SOI marker. */
export function withSegments(jpeg: Buffer, segments: Buffer[]): Buffer {
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/** About `megabytes` MB of EXIF: APP1 segments full of a valid header and junk entries. */
export function hugeExif(jpeg: Buffer, megabytes: number): Buffer {
  const segment = app1(
    Buffer.concat([Buffer.from('Exif\0\0II*\0\x08\0\0\0', 'latin1'), Buffer.alloc(65533 - 14, 0x41)]),
  );
  const count = Math.ceil((megabytes * 1024 * 1024) / segment.length);
  return withSegments(
    jpeg,
    Array.from({ length: count }, () => segment),
  );
}

/** EXIF whose first IFD claims 65535 entries and points past its own end. */
export function malformedExif(jpeg: Buffer): Buffer {
  const tiff = Buffer.alloc(64, 0xff);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4); // first IFD at 8
  tiff.writeUInt16LE(0xffff, 8); // 65535 entries in 56 bytes
  tiff.writeUInt16LE(0x8825, 10); // a GPS IFD pointer ...
  tiff.writeUInt16LE(4, 12);
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt32LE(0xfffffff0, 18); // ... far outside the segment
  return withSegments(jpeg, [app1(Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]))]);
}

/** The JPEG with its frame header claiming width x height (a pixel flood in a few KB). */
export function jpegClaiming(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let i = 2; i < out.length - 9; i += 1) {
    if (out[i] === 0xff && out[i + 1]! >= 0xc0 && out[i + 1]! <= 0xc2) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      return out;
    }
  }
  throw new Error('no SOF marker');
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG header declaring width x height (8-bit RGB) over a tiny, wrong IDAT. */
export function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(16))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A real, valid grey PNG of width x height, every row filter 0 and mid-grey, compressed like any PNG
 * encoder would. sharp decodes it all; 1 x 39,000,000 is 76 KB (issue 46's upload). sharp itself takes
 * ~10 s to write that one, zlib well under a second, so the slivers are built here.
 */
export function greyPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const row = Buffer.alloc(1 + width, 0x80);
  row[0] = 0; // filter: none
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(row.length * height, row), { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG whose EXIF is built by sharp itself: a 60 KB description and absurd GPS. */
export async function sharpExifJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } })
    .jpeg()
    .withExif({
      IFD0: { ImageDescription: 'x'.repeat(60_000), Make: '<script>alert(1)</script>' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '1000/1 0/1 0/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '5000/1 0/1 0/1',
      },
    })
    .toBuffer();
}
