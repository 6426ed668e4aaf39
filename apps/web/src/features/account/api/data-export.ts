import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataExportStatus } from '@cats/contracts';
import { api, apiBlob } from '../../../lib/api-client.ts';
import { accountKeys } from './query-keys.ts';

/** How often a running export is asked about: it takes seconds for a few posts, a minute for 1,000. */
const POLL_MS = 3000;

/** GET /api/profile/export: the caller's 'Download my data' export, polled while it is being prepared. */
export function useDataExport() {
  return useQuery({
    queryKey: accountKeys.dataExport(),
    queryFn: ({ signal }) => api<DataExportStatus>('/api/profile/export', { signal }),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? POLL_MS : false),
  });
}

/** POST /api/profile/export: starts preparing the zip (the demo account is refused). */
export function useStartDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<DataExportStatus>('/api/profile/export', { method: 'POST' }),
    onSuccess: (status) => queryClient.setQueryData(accountKeys.dataExport(), status),
  });
}

/** GET /api/profile/export/download, saved by the browser under the server's file name. */
export async function downloadDataExport(): Promise<void> {
  const blob = await apiBlob('/api/profile/export/download');
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `neighbourhood-cats-data-${new Date().toISOString().slice(0, 10)}.zip`;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser's download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
