import type { QueryClient } from '@tanstack/react-query';
import { showToast } from '../../toast.tsx';
import { errorMessage } from './errors.ts';
import { refetchAfterWrite } from '../../../lib/refetch-after-write.ts';

/**
 * A toast's Undo (hide, block, delete): the call that reverses the action, then every list reloads,
 * as what comes back belongs wherever its date puts it. Plain calls, not a mutation hook: the card
 * that acted is gone by then, and the toast outlives it.
 */
export async function undoWith(
  queryClient: QueryClient,
  reverse: () => Promise<unknown>,
  onUndone?: () => void,
): Promise<void> {
  try {
    await reverse();
    await refetchAfterWrite(queryClient);
    onUndone?.();
  } catch (err) {
    showToast({ message: `Could not undo: ${errorMessage(err)}` });
  }
}
