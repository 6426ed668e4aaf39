/**
 * How `npm run backup` reaches a running server on the embedded database. PGlite's data directory can
 * be opened by one process only, and only that process can dump it; so the server listens on a Unix
 * domain socket in DATA_DIR, made with mode 0600: only the account the server runs as (and root) can
 * connect, and nothing is reachable over the network. It answers one request, a backup, streamed back
 * in frames.
 *
 * Frames: one type byte, a 4-byte big-endian length, the payload. 'D' archive bytes, 'F' finished (a
 * JSON summary), 'E' failed (a JSON {message}). The archive is only complete after 'F'.
 *
 * The socket also tells whether a server runs: connecting succeeds only while one listens. A socket
 * file nobody answers on is what a server that did not shut down cleanly leaves; the next start
 * removes it. A server that finds another one answering refuses to start (two processes on one PGlite
 * directory would corrupt it).
 */
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';

export const BACKUP_SOCKET = 'backup.sock';
/** Unix socket paths are limited to 107 bytes on Linux (sun_path). */
const SOCKET_PATH_MAX = 107;

export const socketPath = (dataDir: string) => join(dataDir, BACKUP_SOCKET);

export type SocketProbe = 'answering' | 'stale' | 'absent' | 'too-long';

/** Whether a server listens on DATA_DIR's backup socket. */
export async function probeSocket(dataDir: string): Promise<SocketProbe> {
  const path = socketPath(dataDir);
  if (Buffer.byteLength(path) > SOCKET_PATH_MAX) return 'too-long';
  if (!existsSync(path)) return 'absent';
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve('answering');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ENOENT' ? 'absent' : 'stale'));
  });
}

export interface SocketBackupResult {
  ok: boolean;
  /** The summary on success, the message on failure. */
  payload: Record<string, unknown>;
}

/** Serves backups on DATA_DIR's socket. Rejects if another server already answers there. */
export async function listenForBackups(
  dataDir: string,
  runBackup: (out: Writable) => Promise<Record<string, unknown>>,
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
): Promise<Server | null> {
  const path = socketPath(dataDir);
  const probe = await probeSocket(dataDir);
  if (probe === 'answering') {
    throw new Error(
      `Another server is running on DATA_DIR ${dataDir} (it answers on ${path}); the embedded database can be open in one process only.`,
    );
  }
  if (probe === 'too-long') {
    log.error({ path }, 'DATA_DIR path too long for the backup socket; stop the server to back up');
    return null;
  }
  if (probe === 'stale') unlinkSync(path);
  let busy = false;
  const server = createServer((socket) => {
    socket.once('data', (request) => {
      let op: unknown;
      try {
        op = (JSON.parse(request.toString('utf8')) as { op?: unknown }).op;
      } catch {
        op = null;
      }
      if (op === 'ping') return void socket.end(frame('F', { ok: true }));
      if (op !== 'backup') return void socket.end(frame('E', { message: 'Unknown request' }));
      if (busy)
        return void socket.end(frame('E', { message: 'A backup is already running on this server.' }));
      busy = true;
      log.info({}, 'backup requested through the backup socket');
      const out = framedWriter(socket);
      runBackup(out)
        .then(
          (summary) => {
            log.info(summary, 'backup written');
            socket.end(frame('F', summary));
          },
          (err: unknown) => {
            log.error({ err }, 'backup failed');
            socket.end(frame('E', { message: err instanceof Error ? err.message : String(err) }));
          },
        )
        .finally(() => (busy = false));
    });
    socket.on('error', () => {});
  });
  // The socket is created with no permission for anyone but its owner, then made sure of.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(path, 0o600);
  return server;
}

/** A Writable whose writes go out as 'D' frames (waiting when the socket is full). */
function framedWriter(socket: Socket): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (socket.destroyed) return done(new Error('The backup command went away'));
      if (socket.write(frame('D', chunk))) done();
      else socket.once('drain', () => done());
    },
    final(done) {
      done();
    },
  });
}

function frame(type: 'D' | 'E' | 'F', payload: Buffer | Record<string, unknown>): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(JSON.stringify(payload));
  const header = Buffer.alloc(5);
  header.write(type, 0, 'ascii');
  header.writeUInt32BE(body.length, 1);
  return Buffer.concat([header, body]);
}

/** Asks the server on DATA_DIR's socket for a backup, writing the archive to `out`. */
export async function requestBackup(dataDir: string, out: Writable): Promise<SocketBackupResult> {
  const socket = connect(socketPath(dataDir));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(JSON.stringify({ op: 'backup' }));
  let buffered = Buffer.alloc(0);
  let result: SocketBackupResult | null = null;
  for await (const chunk of socket) {
    buffered = Buffer.concat([buffered, chunk as Buffer]);
    while (buffered.length >= 5) {
      const length = buffered.readUInt32BE(1);
      if (buffered.length < 5 + length) break;
      const type = String.fromCharCode(buffered[0]!);
      const body = buffered.subarray(5, 5 + length);
      buffered = buffered.subarray(5 + length);
      if (type === 'D') {
        if (!out.write(body)) await new Promise((resolve) => out.once('drain', resolve));
      } else {
        result = { ok: type === 'F', payload: JSON.parse(body.toString('utf8')) as Record<string, unknown> };
      }
    }
  }
  return (
    result ?? {
      ok: false,
      payload: { message: 'The server closed the connection before the backup was finished.' },
    }
  );
}
