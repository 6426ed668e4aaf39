import { z } from 'zod';
import {
  MODERATION_MESSAGES,
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  REPORT_TARGET_TYPES,
} from './moderation-constants.ts';
import { hasUnwantedControls } from './posts-constants.ts';

export * from './moderation-constants.ts';

/**
 * Issue 27, "Reporting". Anyone signed in (not the demo account) reports a post, a comment, a person
 * or a cat's page; reporting the same thing again updates the report. The reporter stops seeing a
 * reported post or comment at once, and may block its author in the same step (`blockAuthor`).
 */
export const createReportSchema = z.object({
  targetType: z.enum(REPORT_TARGET_TYPES, { error: MODERATION_MESSAGES.targetTypeInvalid }),
  targetId: z.uuid({ error: MODERATION_MESSAGES.targetIdInvalid }),
  reason: z.enum(REPORT_REASONS, { error: MODERATION_MESSAGES.reasonInvalid }),
  note: z
    .string({ error: MODERATION_MESSAGES.noteTooLong })
    .max(REPORT_NOTE_MAX, { error: MODERATION_MESSAGES.noteTooLong })
    .refine((text) => !hasUnwantedControls(text), { error: MODERATION_MESSAGES.noteControls })
    .transform((text) => text.trim())
    .optional()
    .default(''),
  blockAuthor: z.boolean().optional().default(false),
});
export type CreateReportBody = z.input<typeof createReportSchema>;

export const reportReceiptSchema = z.object({
  reportId: z.string(),
  /** True when this reporter had reported the same thing before and the report was updated. */
  updated: z.boolean(),
  /** True when the author was blocked in the same step. */
  blocked: z.boolean(),
  message: z.string(),
});
export type ReportReceipt = z.infer<typeof reportReceiptSchema>;
