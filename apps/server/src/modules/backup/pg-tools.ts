/**
 * The PostgreSQL client tools that backups and restores on PostgreSQL run (pg_dump, pg_restore), and
 * the DATABASE_URL they need.
 */
import { spawn } from 'node:child_process';
import { BackupError } from './backup-error.ts';

export function requireUrl(url: string | undefined): string {
  if (!url) throw new Error('A PostgreSQL backup needs DATABASE_URL');
  return url;
}

/** The tool's major version (`pg_dump (PostgreSQL) 15.20` -> 15), or a message naming what to install. */
export async function toolMajor(tool: 'pg_dump' | 'pg_restore'): Promise<number> {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(tool, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') {
      throw new BackupError(
        `${tool} was not found on PATH. Backups and restores on PostgreSQL use the server's own tools: install the PostgreSQL client tools of your server's major version or newer (Debian/Ubuntu: apt-get install postgresql-client; elsewhere the postgresql client package), then try again.`,
      );
    }
    throw err;
  });
  const match = /(\d+)(?:\.\d+)?/.exec(output);
  if (!match) throw new BackupError(`Could not read the version of ${tool} (it answered: ${output.trim()})`);
  return Number(match[1]);
}

/**
 * Runs pg_dump or pg_restore against `url`, the password passed in the environment rather than on the
 * command line (where any user of the machine could read it in the process list).
 */
export async function runTool(tool: 'pg_dump' | 'pg_restore', args: string[], url: string): Promise<void> {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  await new Promise<void>((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${parsed.toString()}`], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${tool} failed (exit code ${code}): ${stderr.trim()}`)),
    );
  });
}
