import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MarkMissingRequest, MissingAlertChangedResponse, MissingAlertResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { getMissingAlert } from '../../../components/missing/api/get-missing-alert.ts';
import { missingKeys } from '../../../components/missing/api/query-keys.ts';

const base = (catId: string) => `/api/cats/${encodeURIComponent(catId)}/missing`;

/** GET /api/cats/{catId}/missing: the cat's alert as the viewer may see it, or null. */
export function useMissingAlert(catId: string) {
  return useQuery({
    queryKey: missingKeys.alert(catId),
    queryFn: ({ signal }) => getMissingAlert(catId, signal),
    select: (data) => data.alert,
  });
}

/**
 * After any change of an alert: the page shows the server's alert (or none), and the near list (feed
 * banner), Explore's pins and the reports load again when next shown.
 */
function useAfterChange(catId: string) {
  const queryClient = useQueryClient();
  return (alert: MissingAlertResponse['alert']) => {
    queryClient.setQueryData<MissingAlertResponse>(missingKeys.alert(catId), { alert });
    void queryClient.invalidateQueries({ queryKey: missingKeys.near });
    void queryClient.invalidateQueries({ queryKey: missingKeys.maps });
    void queryClient.invalidateQueries({ queryKey: missingKeys.reports(catId) });
  };
}

/** POST /api/cats/{catId}/missing (caretakers). */
export function useMarkMissing(catId: string) {
  const afterChange = useAfterChange(catId);
  return useMutation({
    mutationFn: (body: MarkMissingRequest) =>
      api<MissingAlertChangedResponse>(base(catId), { method: 'POST', body }),
    onSuccess: (data) => afterChange(data.alert),
  });
}

/** POST /api/cats/{catId}/missing/renew (caretakers). */
export function useRenewAlert(catId: string) {
  const afterChange = useAfterChange(catId);
  return useMutation({
    mutationFn: () => api<MissingAlertChangedResponse>(`${base(catId)}/renew`, { method: 'POST' }),
    onSuccess: (data) => afterChange(data.alert),
  });
}

/** DELETE /api/cats/{catId}/missing (caretakers): 'Back home!'. */
export function useMarkFound(catId: string) {
  const afterChange = useAfterChange(catId);
  return useMutation({
    mutationFn: () => api<{ message: string }>(base(catId), { method: 'DELETE' }),
    onSuccess: () => afterChange(null),
  });
}
