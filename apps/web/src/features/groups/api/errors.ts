import { DEMO_USER_ID } from '@cats/contracts';
import { ApiError, noServerResponse } from '../../../lib/api-client.ts';
import { authStore } from '../../../lib/auth-store.ts';
import { translate } from '../../../i18n/i18n-store.ts';

/**
 * Spec section 8, group forms: 400 shows the server's message, other errors 'Request failed', no
 * reply 'No Server Response'. The demo account's refusal shows its own message (section 6): a 403 to
 * the demo account is that refusal, whatever language the server wrote it in.
 */
export function groupErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === null) return noServerResponse();
    if (err.status === 400) return err.message;
    if (err.status === 403 && authStore.get().userId === DEMO_USER_ID) return err.message;
  }
  return translate({ id: 'groups.error.requestFailed', defaultMessage: 'Request failed' });
}
