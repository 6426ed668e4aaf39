import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (the kernel's choice), for a listener a test configures. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
