import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPhotoMetadata, withoutGps } from './read-photo-metadata.ts';

const FIXTURES = join(import.meta.dirname, '../../../../../server/test/fixtures/images');
const file = (name: string, type: string) => new File([readFileSync(join(FIXTURES, name))], name, { type });

describe('readPhotoMetadata', () => {
  it('reads the coordinates and the time a photo was taken', async () => {
    const meta = await readPhotoMetadata(file('photo-gps.jpg', 'image/jpeg'));
    expect(meta.coordinates).toEqual({ latitude: 36.7213, longitude: -4.4214 });
    expect(meta.exifData).toEqual({
      latitude: 36.7213,
      longitude: -4.4214,
      DateTimeOriginal: expect.any(String),
    });
  });

  it('reports no coordinates for photos without GPS, PNGs and files that are not images', async () => {
    expect((await readPhotoMetadata(file('photo-no-gps.jpg', 'image/jpeg'))).coordinates).toBeNull();
    expect(await readPhotoMetadata(file('cat.png', 'image/png'))).toEqual({
      coordinates: null,
      exifData: {},
    });
    expect(await readPhotoMetadata(file('text.jpg', 'image/jpeg'))).toEqual({
      coordinates: null,
      exifData: {},
    });
  });

  it('drops the position, and only the position, for a post placed elsewhere', async () => {
    const meta = await readPhotoMetadata(file('photo-gps.jpg', 'image/jpeg'));
    expect(withoutGps(meta.exifData)).toEqual({ DateTimeOriginal: meta.exifData.DateTimeOriginal });
  });
});
