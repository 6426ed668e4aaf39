/**
 * A stand-in map tile server for runs without internet access (and so that third-party tiles do not
 * measure someone else's servers): every /{z}/{x}/{y}.png answers the same 256 px PNG.
 */
import { createServer, type Server } from 'node:http';
import sharp from 'sharp';

export interface TileServer {
  /** A MAP_TILE_URL template. */
  template: string;
  close(): Promise<void>;
}

export async function startTileServer(): Promise<TileServer> {
  const tile = await sharp({
    create: { width: 256, height: 256, channels: 3, background: { r: 233, g: 236, b: 229 } },
  })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><path d="M0 0H256V256" fill="none" stroke="#d4d8cf" stroke-width="2"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();
  const server: Server = createServer((req, res) => {
    res.writeHead(200, {
      'content-type': 'image/png',
      'content-length': tile.length,
      'cache-control': 'public, max-age=86400',
      'access-control-allow-origin': '*',
    });
    res.end(req.method === 'HEAD' ? undefined : tile);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    template: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
