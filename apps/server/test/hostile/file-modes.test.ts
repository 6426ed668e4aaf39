import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataExportStatus } from '@cats/contracts';
import { bootstrap } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import { runBackupCli } from '../../src/modules/backup/backup-cli.ts';
import { main as adminCli } from '../../src/modules/moderation/admin-cli.ts';
import { SAMPLE_PASSWORD, SAMPLE_USERS } from '../../src/seed/sample-content.ts';
import { multipartBody } from '../fixtures/images.ts';
import { smallJpeg } from './support/world.ts';

/**
 * Issue 46: DATA_DIR/pglite/** came out 0666 and exports 0644 under a permissive umask, so any local user
 * could read password hashes and exact places, or make themselves admin. Here the real start-up function
 * (bootstrap, as server.ts calls it) and the backup and admin command lines run under umask 000 on a
 * DATA_DIR left 0777, the server writes everything it writes (embedded database, secrets, an uploaded
 * post's media, a mail in the outbox, a data export, the backup socket) and every entry is checked.
 */

const work = mkdtempSync(join(tmpdir(), 'cats-modes-'));
const originalUmask = process.umask();
afterAll(() => {
  process.umask(originalUmask);
  rmSync(work, { recursive: true, force: true });
});

/** Every entry under `root` (itself included) that its group or others may read, write or enter. */
function openToOthers(root: string): string[] {
  const open: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if ((stat.mode & 0o077) !== 0) open.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return open;
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('files the server writes (embedded database)', () => {
  const dataDir = join(work, 'data');
  let app: FastifyInstance;

  beforeAll(async () => {
    // An existing DATA_DIR with loose modes, as an older version or a careless mkdir left it.
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o777);
    process.umask(0o000);
    app = await bootstrap(
      loadConfig({
        NODE_ENV: 'development',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        SEED: 'sample',
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('leaves nothing in DATA_DIR that another local user can read, under umask 000', async () => {
    const luna = SAMPLE_USERS.find((u) => u.email === 'luna@example.com')!;
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: luna.email, password: SAMPLE_PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    const headers = { authorization: `Bearer ${login.json<{ accessToken: string }>().accessToken}` };

    const body = multipartBody(
      { comment: 'A cat on a wall' },
      { name: 'c.jpg', type: 'image/jpeg', data: await smallJpeg(46) },
    );
    const post = await app.inject({
      method: 'POST',
      url: '/api/posts/createPost',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    expect(post.statusCode, post.body).toBe(201);

    // A mail to the outbox (no SMTP configured).
    const forgot = await app.inject({
      method: 'POST',
      url: '/api/password/forgot',
      payload: { email: luna.email },
    });
    expect(forgot.statusCode, forgot.body).toBeLessThan(300);

    const started = await app.inject({ method: 'POST', url: '/api/profile/export', headers });
    expect(started.statusCode, started.body).toBe(202);
    const deadline = Date.now() + 30_000;
    let status: DataExportStatus;
    for (;;) {
      status = (await app.inject({ method: 'GET', url: '/api/profile/export', headers })).json();
      if (status.status !== 'running' || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status.status).toBe('ready');

    // A backup asked of the running server over DATA_DIR's socket, as `npm run backup` does.
    process.umask(0o000);
    const archive = join(work, 'backup.tar');
    const backup = await runBackupCli(['backup', '--out', archive], {
      NODE_ENV: 'development',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
    });
    expect(backup.code, backup.output).toBe(0);
    expect(lstatSync(archive).mode & 0o777).toBe(0o600);

    const written = readdirSync(dataDir, { recursive: true }).map(String);
    for (const part of ['pglite', 'secrets.json', 'outbox', 'backup.sock', 'media/posts', 'media/exports']) {
      expect(
        written.some((p) => p.startsWith(part)),
        part,
      ).toBe(true);
    }
    expect(openToOthers(dataDir)).toEqual([]);
  }, 120_000);
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('files the admin command line writes', () => {
  it('creates a fresh embedded database readable by its user only, under umask 000', async () => {
    const dataDir = join(work, 'admin');
    process.umask(0o000);
    const lines: string[] = [];
    const code = await adminCli(['list'], {
      env: { NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: dataDir },
      print: (line) => lines.push(line),
    });
    expect(code, lines.join('\n')).toBe(0);
    expect(readdirSync(join(dataDir, 'pglite')).length).toBeGreaterThan(0);
    expect(openToOthers(dataDir)).toEqual([]);
  }, 120_000);
});
