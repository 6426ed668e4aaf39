import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  randomBytes,
  verify,
  type ECDH,
} from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service in process, for tests of Web Push (issue 25): it takes what the server POSTs to a
 * subscription's endpoint, records it, and answers as told per path (201 by default). With a
 * subscription made by `browserSubscription` (real P-256 keys, as a browser makes them), a test can
 * check the VAPID signature and decrypt the message (RFC 8291 and RFC 8188, written out below from the
 * RFCs, independently of the web-push library that encrypts them). Self-contained (node: modules only):
 * the e2e tests use it too.
 */

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The status this service answered with. */
  status: number;
}

export interface FakePushService {
  /** http://127.0.0.1:port */
  origin: string;
  received: ReceivedPush[];
  /** Answers requests to `path` with `status` from now on (410: gone, 500: a broken service). */
  answer(path: string, status: number): void;
  /** The `nth` request to `path` (1: the first), once it has come, or an error after `timeoutMs`. */
  waitFor(path: string, nth?: number, timeoutMs?: number): Promise<ReceivedPush>;
  /** The requests to `path` so far. */
  to(path: string): ReceivedPush[];
  close(): Promise<void>;
}

export async function startFakePushService(): Promise<FakePushService> {
  const received: ReceivedPush[] = [];
  const statuses = new Map<string, number>();
  const waiters = new Set<() => void>();
  const to = (path: string) => received.filter((r) => r.path === path);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const status = statuses.get(path) ?? 201;
      const push: ReceivedPush = { path, headers: req.headers, body: Buffer.concat(chunks), status };
      received.push(push);
      res.writeHead(status).end();
      for (const check of [...waiters]) check();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answer: (path, status) => statuses.set(path, status),
    to,
    waitFor(path, nth = 1, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`push ${nth} to ${path} did not come within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = () => {
          const push = to(path)[nth - 1];
          if (!push) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(push);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's subscription, with the private half the browser would keep to read its pushes. */
export interface BrowserSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
  /** Decrypts an aes128gcm push message body sent to this subscription. */
  decrypt(body: Buffer): Buffer;
}

export function browserSubscription(endpoint: string): BrowserSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
    decrypt: (body) => decryptAes128gcm(body, ecdh, authSecret),
  };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** HKDF-SHA-256 (RFC 5869) for outputs of at most 32 bytes: extract, then one round of expand. */
function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer {
  const prk = hmac(salt, ikm);
  return hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, length);
}

/**
 * RFC 8188's aes128gcm content coding, with RFC 8291's key derivation for Web Push: the header carries
 * the salt, the record size and the sender's public key; the user agent's private key and the auth
 * secret make the input key; each record ends in a delimiter (2 for the last) and zero padding.
 */
export function decryptAes128gcm(body: Buffer, receiver: ECDH, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65)
    throw new Error(`expected the sender's 65-byte public key as key id, got ${idLength} bytes`);

  const ecdhSecret = receiver.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiver.getPublicKey(), senderPublic]);
  const ikm = hkdf(authSecret, ecdhSecret, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonceBase = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);

  const plain: Buffer[] = [];
  for (let offset = 0, seq = 0; offset < ciphertext.length; offset += recordSize, seq += 1) {
    const record = ciphertext.subarray(offset, offset + recordSize);
    const nonce = Buffer.from(nonceBase);
    // The record's sequence number is XORed into the end of the nonce (fewer than 2^32 records here).
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end -= 1;
    const last = offset + recordSize >= ciphertext.length;
    if (padded[end] !== (last ? 2 : 1)) throw new Error(`record ${seq} has no valid padding delimiter`);
    plain.push(padded.subarray(0, end));
  }
  return Buffer.concat(plain);
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
}

/**
 * Checks the Authorization header of RFC 8292 ('vapid t=<JWT>, k=<public key>'): an ES256 JWT that the
 * key verifies, whose audience is the push service's origin. Answers the key and the claims.
 */
export function verifyVapid(
  authorization: string | undefined,
  endpoint: string,
): { publicKey: string; claims: VapidClaims } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID Authorization header: ${authorization}`);
  const [, token, publicKey] = match as unknown as [string, string, string];
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('the VAPID JWT signature does not verify with its key');
  const alg = (JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string }).alg;
  if (alg !== 'ES256') throw new Error(`VAPID JWT signed with ${alg}, expected ES256`);
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as VapidClaims;
  if (claims.aud !== new URL(endpoint).origin)
    throw new Error(`VAPID audience ${claims.aud} is not ${new URL(endpoint).origin}`);
  return { publicKey, claims };
}
