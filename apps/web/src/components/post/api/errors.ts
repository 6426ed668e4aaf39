import { translate } from '../../../i18n/i18n-store.ts';
import { ApiError, noServerResponse } from '../../../lib/api-client.ts';
import { isDemoDisabledError } from '../../message-modal.tsx';
import { showOfflineWriteToast } from '../../offline-bar.tsx';

/** The demo account's refused writes answer 403 'Feature disabled for demo user' (spec section 6). */
export const isDemoRefusal = isDemoDisabledError;

/**
 * What to tell the person, in their language: 'No Server Response' when the server could not be reached,
 * else the server's own sentence (already in their language, decision 017).
 */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.status === null ? noServerResponse() : err.message;
  if (err instanceof Error) return err.message;
  return translate({ id: 'errors.requestFailedPlain', defaultMessage: 'Request failed' });
}

/**
 * Spec section 8: comment and other action failures are logged only. Issue 28: one that never reached
 * the server (offline) is also said, so that the person does not believe it saved.
 */
export function logFailure(what: string, err: unknown): void {
  console.error(`${what}: ${errorMessage(err)}`);
  if (err instanceof ApiError && err.isNetworkError) showOfflineWriteToast();
}
