import type { InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';

/**
 * After a write whose effect reaches lists this code does not patch (an Undo, a restore, an unblock),
 * every matching query fetches again. `invalidateQueries` alone is not enough: a query still on its
 * FIRST fetch (no data yet) is not restarted by TanStack Query v5, which hands back that fetch's
 * promise instead (TanStack/query#8530, the maintainers' advice is to cancel first). A list requested
 * a moment before the write would then keep the answer from before it: the profile opened as the
 * owner tapped Undo would stay without the picture that came back. Cancelling first makes every
 * matching query, first fetch or not, ask the server again.
 */
export async function refetchAfterWrite(
  queryClient: QueryClient,
  filters?: InvalidateQueryFilters,
): Promise<void> {
  await queryClient.cancelQueries(filters);
  await queryClient.invalidateQueries(filters);
}
