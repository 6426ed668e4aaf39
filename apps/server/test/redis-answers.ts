import { Socket } from 'node:net';

/**
 * Whether Redis answers on 127.0.0.1:6379, as on the development and CI machines: suites that need it
 * skip themselves elsewhere instead of failing.
 */
export async function redisAnswers(): Promise<boolean> {
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
    socket.connect(6379, '127.0.0.1');
  });
}
