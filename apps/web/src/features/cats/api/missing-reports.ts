import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MissingReport, MissingReportRequest, MissingReportsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { missingKeys } from '../../../components/missing/api/query-keys.ts';

const reportsUrl = (catId: string) => `/api/cats/${encodeURIComponent(catId)}/missing/reports`;

/** GET /api/cats/{catId}/missing/reports: every answer to the alert, for its caretakers only. */
export function useMissingReports(catId: string, enabled: boolean) {
  return useQuery({
    queryKey: missingKeys.reports(catId),
    queryFn: ({ signal }) => api<MissingReportsResponse>(reportsUrl(catId), { signal }),
    select: (data) => data.reports,
    enabled,
  });
}

/** POST /api/cats/{catId}/missing/reports: 'I saw this cat' without a photo. */
export function useReportSighting(catId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MissingReportRequest) =>
      api<{ message: string; report: MissingReport }>(reportsUrl(catId), { method: 'POST', body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: missingKeys.reports(catId) }),
  });
}
