import type { QueryClient, QueryKey, Updater } from '@tanstack/react-query';

/**
 * Writes the answer to a write (a comment posted, a join request accepted) into the cache. A GET of
 * the same key still in flight read its data before the write; left alone it would land afterwards
 * and put the old value back: the comment just posted would vanish, a new group code turn back into
 * the old one. It is cancelled first, so the answer to the write is the last word.
 */
export async function replaceQueryData<T>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  updater: Updater<T | undefined, T | undefined>,
): Promise<void> {
  await queryClient.cancelQueries({ queryKey, exact: true });
  queryClient.setQueryData<T>(queryKey, updater);
}
