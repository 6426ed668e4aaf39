import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client.ts';

/**
 * Gives a member screen (and the member navigation) the shared query cache. Loaded together with those
 * screens' code, never by the landing page; every instance shares the one client, so a screen change
 * keeps the cache.
 */
export default function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
