import { ApiError, NO_SERVER_RESPONSE } from '../../../lib/api-client.ts';
import { isDemoDisabledError } from '../../message-modal.tsx';
import { showOfflineWriteToast } from '../../offline-bar.tsx';

/** The demo account's refused writes answer 403 'Feature disabled for demo user' (spec section 6). */
export const isDemoRefusal = isDemoDisabledError;

/** What to tell the person: 'No Server Response' when the server could not be reached. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.status === null ? NO_SERVER_RESPONSE : err.message;
  if (err instanceof Error) return err.message;
  return 'Request failed';
}

/**
 * Spec section 8: comment and other action failures are logged only. Issue 28: one that never reached
 * the server (offline) is also said, so that the person does not believe it saved.
 */
export function logFailure(what: string, err: unknown): void {
  console.error(`${what}: ${errorMessage(err)}`);
  if (err instanceof ApiError && err.isNetworkError) showOfflineWriteToast();
}
