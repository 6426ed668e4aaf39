import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Writable } from 'node:stream';
import { ConfigError, loadConfig, type Config } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { keepDataPrivate } from '../../lib/private-files.ts';
import { createStorage } from '../../media/create-storage.ts';
import { BackupError } from './backup-error.ts';
import { finishBackup, writeBackup, type BackupSummary } from './backup.service.ts';
import { restoreBackup } from './restore.service.ts';
import { listenForBackups, probeSocket, requestBackup, socketPath } from './backup-socket.ts';

/**
 * `npm run backup -- --out FILE` and `npm run restore -- FILE` (issue 29; docs/operations.md). They read
 * the same configuration as the server (DATA_DIR, DATABASE_URL, MEDIA_DIR, S3_*). On the embedded
 * database a running server takes the backup itself, asked through DATA_DIR's socket (backup-socket.ts).
 */
export const BACKUP_CLI_USAGE = [
  'Usage:',
  '  npm run backup -- --out FILE   write one archive of the database and the media (the app may keep running)',
  '  npm run restore -- FILE        restore an archive into an empty DATA_DIR or database',
].join('\n');

export interface CliResult {
  /** 0 done, 1 refused or failed, 2 wrong usage. */
  code: number;
  output: string;
}

export async function runBackupCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = () => {},
): Promise<CliResult> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return { code: 1, output: err.message };
    throw err;
  }
  // The archive, a restored database and media: this user's alone (issue 46).
  keepDataPrivate([resolve(config.DATA_DIR), config.MEDIA_DIR && resolve(config.MEDIA_DIR)]);
  const [command, ...rest] = args;
  try {
    if (command === 'backup') {
      const at = rest.indexOf('--out');
      const out = at >= 0 ? rest[at + 1] : undefined;
      if (!out || rest.length !== 2)
        return { code: 2, output: `Where to? Give --out FILE.\n${BACKUP_CLI_USAGE}` };
      return await backup(config, resolve(out), print);
    }
    if (command === 'restore') {
      if (rest.length !== 1)
        return { code: 2, output: `Restore which archive? Give one FILE.\n${BACKUP_CLI_USAGE}` };
      return await restore(config, resolve(rest[0]!), print);
    }
    const what = command === undefined ? 'No command given.' : `Unknown command: ${command}.`;
    return { code: 2, output: `${what}\n${BACKUP_CLI_USAGE}` };
  } catch (err) {
    if (err instanceof BackupError) return { code: 1, output: err.message };
    throw err;
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function backup(config: Config, file: string, print: (line: string) => void): Promise<CliResult> {
  const started = Date.now();
  const dataDir = resolve(config.DATA_DIR);
  // Written beside the target and renamed once complete: FILE is never a half-written archive.
  const partial = `${file}.partial`;
  const output = createWriteStream(partial, { mode: 0o600 });
  const opened = new Promise<void>((ok, fail) => {
    output.once('open', () => ok());
    output.once('error', fail);
  });
  try {
    await opened;
  } catch (err) {
    return { code: 1, output: `Could not write ${file}: ${(err as Error).message}` };
  }
  try {
    let summary: Record<string, unknown>;
    if (!config.DATABASE_URL && (await probeSocket(dataDir)) === 'answering') {
      print(`A server is running on ${dataDir}: asking it for the backup (${socketPath(dataDir)}).`);
      const result = await requestBackup(dataDir, output);
      await closeStream(output);
      if (!result.ok)
        throw new BackupError(`The server could not take the backup: ${String(result.payload.message)}`);
      summary = result.payload;
    } else {
      summary = { ...(await backupHere(config, dataDir, output, print)) };
    }
    await rename(partial, file);
    const size = (await stat(file)).size;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return {
      code: 0,
      output: `Backup written to ${file} (${mb(size)}, ${seconds} s): ${String(summary.databaseKind)} database ${mb(Number(summary.databaseBytes))}, ${String(summary.mediaFiles)} media files ${mb(Number(summary.mediaBytes))}, ${String(summary.migrations)} migrations.`,
    };
  } catch (err) {
    output.destroy();
    await rm(partial, { force: true });
    throw err;
  }
}

/** This process opens the database: PostgreSQL always, the embedded one when no server has it open. */
async function backupHere(
  config: Config,
  dataDir: string,
  output: Writable,
  print: (line: string) => void,
): Promise<BackupSummary> {
  if (!config.DATABASE_URL) {
    const pgliteDir = join(dataDir, 'pglite');
    if (!existsSync(join(pgliteDir, 'PG_VERSION'))) {
      throw new BackupError(
        `There is no embedded database in ${pgliteDir} to back up (DATA_DIR=${config.DATA_DIR}).`,
      );
    }
    // PGlite writes postmaster.pid while a process has the directory open and removes it on close.
    if (existsSync(join(pgliteDir, 'postmaster.pid'))) {
      throw new BackupError(
        `The embedded database in ${pgliteDir} is open in another process, or its last server did not shut down cleanly (postmaster.pid is there), and no server answers on ${socketPath(dataDir)}. If a server is running, stop it and back up again; if none is, start the server once and stop it, then back up.`,
      );
    }
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
  // While this process holds the embedded database, a server starting on DATA_DIR finds the socket
  // answering and refuses to open it too.
  const guard = config.DATABASE_URL
    ? null
    : await listenForBackups(
        dataDir,
        () => Promise.reject(new Error('A backup is being taken by the command line.')),
        { info: () => {}, error: () => {} },
      );
  const storage = createStorage(config);
  try {
    const src = { database, databaseUrl: config.DATABASE_URL, storage, dataDir, log: print };
    const summary = await writeBackup(src, output);
    return await finishBackup(src, summary);
  } finally {
    await new Promise<void>((done) => (guard ? guard.close(() => done()) : done()));
    await storage.close?.();
    await database.close();
  }
}

async function closeStream(stream: Writable): Promise<void> {
  await new Promise<void>((done, fail) => {
    stream.once('error', fail);
    stream.end(() => done());
  });
}

async function restore(config: Config, file: string, print: (line: string) => void): Promise<CliResult> {
  const started = Date.now();
  if (!existsSync(file)) return { code: 1, output: `There is no file ${file}.` };
  const dataDir = resolve(config.DATA_DIR);
  if (!config.DATABASE_URL && (await probeSocket(dataDir)) === 'answering') {
    return {
      code: 1,
      output: `Restore refused: a server is running on ${dataDir}. Restore into an empty DATA_DIR with no server on it. Nothing was changed.`,
    };
  }
  const storage = createStorage(config);
  try {
    const summary = await restoreBackup(file, {
      kind: config.DATABASE_URL ? 'postgres' : 'pglite',
      dataDir,
      databaseUrl: config.DATABASE_URL,
      storage,
      mediaDir: config.S3_BUCKET ? undefined : resolve(config.MEDIA_DIR ?? join(dataDir, 'media')),
      log: print,
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return {
      code: 0,
      output: `Restored ${file} (taken ${summary.createdAt}) in ${seconds} s: ${summary.databaseKind} database and ${summary.mediaFiles} media files, checksums verified. Start the server on it as usual.`,
    };
  } finally {
    await storage.close?.();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runBackupCli(process.argv.slice(2), process.env, (line) => console.log(line));
  (result.code === 0 ? console.log : console.error)(result.output);
  process.exitCode = result.code;
}
