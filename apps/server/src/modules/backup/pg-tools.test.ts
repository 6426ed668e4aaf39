import { afterEach, describe, expect, it } from 'vitest';
import { BackupError } from './backup-error.ts';
import { toolMajor } from './pg-tools.ts';

/** PostgreSQL backups use the machine's pg_dump and pg_restore: their absence is said plainly. */
describe('PostgreSQL client tools', () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });

  it('reads the installed major version', async () => {
    expect(await toolMajor('pg_dump')).toBeGreaterThanOrEqual(12);
  });

  it('names what to install when pg_dump or pg_restore is not on PATH', async () => {
    process.env.PATH = '/nonexistent';
    const dump = toolMajor('pg_dump');
    await expect(dump).rejects.toBeInstanceOf(BackupError);
    await expect(dump).rejects.toThrow(
      /^pg_dump was not found on PATH\. .*install the PostgreSQL client tools of your server's major version or newer \(Debian\/Ubuntu: apt-get install postgresql-client/,
    );
    await expect(toolMajor('pg_restore')).rejects.toThrow(/^pg_restore was not found on PATH/);
  });
});
