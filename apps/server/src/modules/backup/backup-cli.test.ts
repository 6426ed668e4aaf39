import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@cats/contracts';
import { bootstrap } from '../../bootstrap.ts';
import { loadConfig } from '../../config.ts';
import { runBackupCli } from './backup-cli.ts';
import { socketPath } from './backup-socket.ts';

/**
 * The command line on the embedded database (issue 29): with a server running on DATA_DIR it asks that
 * server over DATA_DIR's socket (PGlite opens in one process only); with none, it opens the directory
 * itself. PostgreSQL backups go through the same service with pg_dump (backup.test.ts).
 */
const work = mkdtempSync(join(tmpdir(), 'cats-backup-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const envFor = (dataDir: string) => ({
  NODE_ENV: 'production',
  JWT_SECRET: 'p'.repeat(40),
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  'npm run backup / restore on the embedded database',
  { timeout: 120_000 },
  () => {
    it('backs up through a running server, refuses a second server, backs up offline, restores', async () => {
      const a = join(work, 'a');
      const app = await bootstrap(loadConfig(envFor(a)));
      let closed = false;
      try {
        expect(statSync(socketPath(a)).mode & 0o777).toBe(0o600);
        // A second server on the same DATA_DIR refuses to start.
        await expect(bootstrap(loadConfig(envFor(a)))).rejects.toThrow(/is in use by another server/);

        const lines: string[] = [];
        const online = await runBackupCli(['backup', '--out', join(work, 'online.tar')], envFor(a), (l) =>
          lines.push(l),
        );
        expect(online.output).toMatch(/^Backup written to .*online\.tar \(.* MB, .* s\): pglite database/);
        expect(online.code).toBe(0);
        expect(lines.join('\n')).toMatch(/A server is running on .*: asking it for the backup/);
        expect(existsSync(join(work, 'online.tar.partial'))).toBe(false);

        // A restore into the running server's DATA_DIR is refused.
        const busy = await runBackupCli(['restore', join(work, 'online.tar')], envFor(a));
        expect(busy).toEqual({
          code: 1,
          output: expect.stringMatching(/Restore refused: a server is running on/),
        });

        await app.close();
        closed = true;
        expect(existsSync(socketPath(a))).toBe(false);
        const offline = await runBackupCli(['backup', '--out', join(work, 'offline.tar')], envFor(a));
        expect(offline.code).toBe(0);
        expect(offline.output).toMatch(/^Backup written to/);
      } finally {
        if (!closed) await app.close();
      }

      const b = join(work, 'b');
      const restored = await runBackupCli(['restore', join(work, 'online.tar')], envFor(b));
      expect(restored.output).toMatch(
        /^Restored .*online\.tar .*: pglite database and 0 media files, checksums verified/,
      );
      expect(restored.code).toBe(0);
      expect(statSync(join(b, 'pglite', 'PG_VERSION')).isFile()).toBe(true);
      const again = await runBackupCli(['restore', join(work, 'offline.tar')], envFor(b));
      expect(again.code).toBe(1);
      expect(again.output).toMatch(/Restore refused: .*the embedded database .*pglite.*Nothing was changed/);

      // The restored directory starts as a server does, with the seeded demo account.
      const app2 = await bootstrap(loadConfig(envFor(b)));
      try {
        const login = await app2.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
        });
        expect(login.statusCode).toBe(200);
      } finally {
        await app2.close();
      }
    });

    it('says what is wrong with the command line', async () => {
      expect(await runBackupCli(['backup'], envFor(join(work, 'x')))).toMatchObject({
        code: 2,
        output: expect.stringMatching(/Give --out FILE/),
      });
      expect(await runBackupCli([], envFor(join(work, 'x')))).toMatchObject({
        code: 2,
        output: expect.stringMatching(/No command given/),
      });
      expect(await runBackupCli(['restore', join(work, 'none.tar')], envFor(join(work, 'x')))).toEqual({
        code: 1,
        output: expect.stringMatching(/There is no file/),
      });
      expect(
        await runBackupCli(['backup', '--out', join(work, 'x.tar')], envFor(join(work, 'empty'))),
      ).toEqual({
        code: 1,
        output: expect.stringMatching(/There is no embedded database in .*empty\/pglite to back up/),
      });
    });
  },
);
