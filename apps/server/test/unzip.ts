import { buffer as readAll } from 'node:stream/consumers';
import yauzl from 'yauzl';

/** Every entry of a zip held in memory, by name (tests' zips are small), read with yauzl. */
export async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry: yauzl.Entry) => {
      file.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        readAll(stream).then((bytes) => {
          entries.set(entry.fileName, bytes);
          file.readEntry();
        }, reject);
      });
    });
    file.on('end', () => resolve());
    file.on('error', reject);
    file.readEntry();
  });
  return entries;
}
