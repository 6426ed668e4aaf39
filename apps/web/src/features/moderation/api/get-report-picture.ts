import { useQuery } from '@tanstack/react-query';
import { apiBlob } from '../../../lib/api-client.ts';
import { moderationKeys } from './moderation-keys.ts';

/**
 * GET /api/moderation/reports/{reportId}/picture (issue 46): a report's picture reaches moderators only,
 * with the bearer token, which an <img> cannot send. So it is fetched as a Blob through the one API
 * client (token, refresh once, abort) and shown through an object URL. We chose this over a short-lived
 * signed URL the route would hand out: no second secret to mint and check, no URL that works without
 * the session if it leaks (history, a screenshot of the address bar, a proxy log), and the answer
 * stays `private, no-store`, so the browser keeps no copy on disk after the moderator logs out.
 */
export const getReportPicture = (url: string, signal?: AbortSignal) => apiBlob(url, { signal });

export function useReportPicture(url: string | null) {
  return useQuery({
    queryKey: moderationKeys.picture(url ?? ''),
    queryFn: ({ signal }) => getReportPicture(url!, signal),
    enabled: url !== null,
    // A report's picture never changes: one request per card while the page is open.
    staleTime: Infinity,
  });
}
