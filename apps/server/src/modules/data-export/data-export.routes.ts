import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataExportStatusSchema } from '@cats/contracts';
import { assertNotDemo, caller, requireAuth } from '../../plugins/auth.ts';
import { createDataExportService } from './data-export.service.ts';
import { HOUR_MS } from '../../lib/durations.ts';

const security = [{ bearer: [] }];
/** Expired exports are looked for this often; each is kept DATA_EXPORT_KEEP_HOURS after it finished. */
export const EXPORT_SWEEP_INTERVAL_MS = HOUR_MS;

/** 'Download my data' (issue 24): start, follow and download the caller's own export. */
export const dataExportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  const exports = createDataExportService({
    db: app.database.db,
    storage: app.storage,
    log: app.log,
    tmpDir: app.uploads.dir,
  });

  let sweeping: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  const sweep = () => {
    sweeping ??= exports
      .sweep()
      .then(() => {})
      .catch((err: unknown) => app.log.warn({ err }, 'export sweep failed; the next round retries'))
      .finally(() => {
        sweeping = null;
      });
  };
  app.addHook('onReady', async () => {
    sweep();
    timer = setInterval(sweep, EXPORT_SWEEP_INTERVAL_MS);
    timer.unref();
  });
  // Before the database and the upload spool close: jobs under way stop and record it.
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    await Promise.all([sweeping, exports.close()]);
  });

  app.post(
    '/profile/export',
    {
      schema: {
        tags: ['profiles'],
        security,
        summary: "Start preparing a zip of the caller's data (one at a time)",
        response: { 202: dataExportStatusSchema },
      },
    },
    async (request, reply) => {
      const status = await exports.start(assertNotDemo(request));
      return reply.status(202).send(status);
    },
  );

  app.get(
    '/profile/export',
    {
      schema: {
        tags: ['profiles'],
        security,
        summary: "The caller's data export: none, running, ready or failed",
        response: { 200: dataExportStatusSchema },
      },
    },
    async (request) => exports.status(caller(request)),
  );

  app.get(
    '/profile/export/download',
    {
      schema: {
        tags: ['profiles'],
        security,
        summary: "The caller's ready data export as a zip (404 when none is ready)",
        produces: ['application/zip'],
      },
    },
    async (request, reply) => {
      const file = await exports.download(caller(request));
      const day = file.createdAt.toISOString().slice(0, 10);
      return reply
        .type('application/zip')
        .header('content-length', file.size)
        .header('content-disposition', `attachment; filename="neighbourhood-cats-data-${day}.zip"`)
        .send(file.body);
    },
  );
};
