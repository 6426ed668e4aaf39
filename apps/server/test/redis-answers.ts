import { Socket } from 'node:net';

/**
 * Whether something answers Redis's PING on host:port (by default 127.0.0.1:6379, as on the
 * development and CI machines): suites that need it skip themselves elsewhere instead of failing.
 * The end-to-end tests ask the same (e2e/scale-out.e2e.ts).
 */
export async function redisAnswers(port = 6379, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, host);
  });
}
