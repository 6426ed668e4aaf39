import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/**
 * The app's one query cache. Only member screens use it, and they load it with their own code (see
 * app/query-provider.tsx): TanStack Query stays off the landing page's JavaScript (issue 8, point 3).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Client errors will not change on retry; network errors and 5xx get one more try.
      retry: (count, err) =>
        count < 1 && !(err instanceof ApiError && err.status !== null && err.status < 500),
    },
  },
});
