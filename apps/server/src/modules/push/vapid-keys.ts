import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webPush from 'web-push';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { readStoredKeys, storeKeys } from './push.repository.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const KEY_SHAPE = { publicKey: /^[A-Za-z0-9_-]{87}$/, privateKey: /^[A-Za-z0-9_-]{43}$/ };
const wellFormed = (keys: Partial<Record<keyof VapidKeys, unknown>> | null): keys is VapidKeys =>
  typeof keys?.publicKey === 'string' &&
  typeof keys.privateKey === 'string' &&
  KEY_SHAPE.publicKey.test(keys.publicKey) &&
  KEY_SHAPE.privateKey.test(keys.privateKey);

/**
 * The embedded database's keys: generated once and kept in DATA_DIR/vapid.json (mode 0600), as
 * secrets.ts keeps the JWT secret, so that subscriptions made before a restart still work after it.
 */
function keysInDataDir(dataDir: string): VapidKeys {
  const file = join(dataDir, 'vapid.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<keyof VapidKeys, unknown>>;
    if (wellFormed(stored)) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const keys = webPush.generateVAPIDKeys();
  writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return keys;
}

/**
 * PostgreSQL's keys live in the database every instance shares: the first instance to need them
 * stores a pair (insert … on conflict do nothing), and every instance, that one included, reads the
 * pair that won. Two instances starting at once therefore agree.
 */
async function keysInDatabase(database: DatabaseHandle): Promise<VapidKeys> {
  const stored = await readStoredKeys(database.db);
  if (stored) return stored;
  await storeKeys(database.db, webPush.generateVAPIDKeys());
  const winner = await readStoredKeys(database.db);
  if (!winner) throw new Error('the VAPID keys could not be stored');
  return winner;
}

/**
 * The server's VAPID key pair (issue 25): VAPID_* variables when set (config.ts checked they match),
 * otherwise generated once (docs/decisions/009-web-push.md).
 */
export function resolveVapidKeys(config: Config, database: DatabaseHandle): Promise<VapidKeys> {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    return Promise.resolve({ publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY });
  }
  if (database.kind === 'postgres') return keysInDatabase(database);
  return Promise.resolve(keysInDataDir(config.DATA_DIR));
}

/**
 * Who runs this server, for push services to contact (the JWT's `sub`): VAPID_SUBJECT, or the public
 * site's https address, or a placeholder address that push services accept but cannot reach anyone at.
 */
export function vapidSubject(config: Config): string {
  if (config.VAPID_SUBJECT) return config.VAPID_SUBJECT;
  if (config.PUBLIC_URL?.startsWith('https://')) return new URL(config.PUBLIC_URL).origin;
  return 'mailto:webmaster@neighbourhood-cats.invalid';
}
