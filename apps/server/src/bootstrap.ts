import { dirname, join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/client.ts';
import { keepDataPrivate } from './lib/private-files.ts';
import { backfillUsernameSkeletons } from './modules/account/username-skeletons.ts';
import { createStorage } from './media/create-storage.ts';
import { setImageConcurrency, setImageTimeout } from './media/image-pipeline.ts';
import { sweepOrphanMedia } from './media/orphan-sweep.ts';
import { finishBackup, writeBackup } from './modules/backup/backup.service.ts';
import { listenForBackups, probeSocket, socketPath } from './modules/backup/backup-socket.ts';
import { deferDeletionsDuringBackups, runDeferredDeletions } from './modules/backup/deferred-deletions.ts';
import { privatiseOldReportPictures } from './modules/moderation/reports.service.ts';
import { resolveJwtSecret } from './secrets.ts';
import { seed, seedDemoUser } from './seed/seed.ts';
import { keepSampleAlertUp } from './seed/sample-missing.ts';

/** The built web app: apps/web/dist, found from this file whether it runs from src/ or dist/. */
export function defaultWebDistDir(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i += 1) {
    const candidate = join(dir, 'web', 'dist');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    dir = dirname(dir);
  }
  return null;
}

function loggerOptions(config: Config) {
  if (config.LOG_LEVEL === 'silent') return false;
  if (config.NODE_ENV === 'development') {
    return {
      level: config.LOG_LEVEL,
      transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } },
    };
  }
  return { level: config.LOG_LEVEL };
}

/** Config -> database (migrated) -> storage -> seed -> app. Used by server.ts and the smoke test. */
export async function bootstrap(config: Config): Promise<FastifyInstance> {
  // Before anything is written: the database, secrets, mails and media are this user's alone (issue 46).
  keepDataPrivate([resolve(config.DATA_DIR), config.MEDIA_DIR && resolve(config.MEDIA_DIR)]);
  const jwtSecret = resolveJwtSecret(config);
  // Two processes on one embedded database would corrupt it: a server (or `npm run backup` holding the
  // database) answering on DATA_DIR's backup socket means it is taken (modules/backup/backup-socket.ts).
  if (!config.DATABASE_URL && (await probeSocket(resolve(config.DATA_DIR))) === 'answering') {
    throw new Error(
      `DATA_DIR ${resolve(config.DATA_DIR)} is in use by another server or by npm run backup (it answers on ${socketPath(resolve(config.DATA_DIR))}); the embedded database can be open in one process only.`,
    );
  }
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: resolve(config.DATA_DIR),
    poolSize: config.DATABASE_POOL_SIZE,
  });
  try {
    await database.migrate();
    await backfillUsernameSkeletons(database.db);
    // Deletions deferred while backups run (deferred-deletions.ts); the backup itself reads through it too.
    const storage = deferDeletionsDuringBackups(createStorage(config), database.db);
    setImageConcurrency(config.IMAGE_CONCURRENCY);
    setImageTimeout(config.IMAGE_TIMEOUT_SECONDS);
    const webDistDir = config.WEB_DIST_DIR ? resolve(config.WEB_DIST_DIR) : defaultWebDistDir();
    const app = await buildApp({
      config,
      database,
      storage,
      jwtSecret,
      webDistDir,
      logger: loggerOptions(config),
    });
    app.addHook('onClose', async () => {
      await storage.close?.();
      await database.close();
    });
    database.onAnnounceFailed((err, dropped) => {
      app.log.warn(
        { err, dropped },
        'could not announce notifications; trying again (open streams read them with their next event)',
      );
    });
    // Without its database thread every request would fail from now on: stop, with an exit code a
    // supervisor (systemd, a container runtime) restarts on.
    database.onLost((err) => {
      app.log.fatal({ err }, 'the embedded database stopped; shutting down');
      process.exitCode = 1;
      void app.close();
    });
    // Reports from before issue 46 get private copies of their pictures; the sweep below then removes
    // the purged posts' files they alone held.
    await privatiseOldReportPictures({ db: database.db, storage, log: app.log });
    // Files written before a crash whose post row never came: removed before anything new is written.
    await sweepOrphanMedia({
      db: database.db,
      storage,
      log: app.log,
      graceMs: config.ORPHAN_SWEEP_GRACE_SECONDS * 1000,
    });
    // Deletions a backup deferred and could not carry out itself (it died): done once no backup runs.
    const deferred = await runDeferredDeletions(database.db, storage);
    if (deferred > 0) app.log.info({ count: deferred }, 'carried out media deletions deferred by a backup');
    if (database.kind === 'pglite') {
      // `npm run backup` asks this process for the embedded database's dump (backup-socket.ts).
      const dataDir = resolve(config.DATA_DIR);
      const backups = await listenForBackups(
        dataDir,
        async (out) => {
          const src = { database, storage, dataDir };
          return { ...(await finishBackup(src, await writeBackup(src, out))) };
        },
        app.log,
      );
      if (backups) app.addHook('onClose', () => new Promise<void>((done) => backups.close(() => done())));
    }
    // SEED (config.ts): production seeds the demo account only unless the operator asks for the sample.
    // The sample admin (issue 27) only outside production, where its password is published.
    const seedContext = {
      db: database.db,
      storage,
      log: app.log,
      sampleAdmin: config.NODE_ENV !== 'production',
    };
    if (config.SEED === 'sample') {
      await seed(seedContext);
      // The sample missing cat stays up on a long-lived instance (issue 26; sample-content.ts).
      keepSampleAlertUp(app, database.db);
    } else if (config.SEED === 'demo') await seedDemoUser(seedContext);
    return app;
  } catch (err) {
    await database.close();
    throw err;
  }
}
