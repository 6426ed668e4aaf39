import { z } from 'zod';

/** How long a finished export can be downloaded before it is removed (issue 24, 'Your data'). */
export const DATA_EXPORT_KEEP_HOURS = 24;

/**
 * The caller's 'Download my data' export. `none`: no export, or the last one expired. `running`: being
 * prepared. `ready`: `sizeBytes` bytes to download until `expiresAt`. `failed`: `message` says why.
 */
export const dataExportStatusSchema = z.object({
  status: z.enum(['none', 'running', 'ready', 'failed']),
  createdAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  sizeBytes: z.number().int().nonnegative().nullable(),
  message: z.string().nullable(),
});
export type DataExportStatus = z.infer<typeof dataExportStatusSchema>;
