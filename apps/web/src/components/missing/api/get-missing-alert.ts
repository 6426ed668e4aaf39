import type { MissingAlertResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';

/**
 * GET /api/cats/{catId}/missing: the cat's alert as the viewer may see it, or null. Shared by the cat's
 * page and Spot's 'I saw this cat' (under missingKeys.alert), which read the same cache entry.
 */
export const getMissingAlert = (catId: string, signal?: AbortSignal) =>
  api<MissingAlertResponse>(`/api/cats/${encodeURIComponent(catId)}/missing`, { signal });
