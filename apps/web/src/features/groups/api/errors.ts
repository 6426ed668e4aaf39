import { DEMO_DISABLED_MESSAGE } from '@cats/contracts';
import { ApiError, NO_SERVER_RESPONSE } from '../../../lib/api-client.ts';

/**
 * Spec section 8, group forms: 400 shows the server's message, other errors 'Request failed', no
 * reply 'No Server Response'. The demo account's refusal shows its own message (section 6).
 */
export function groupErrorMessage(err: unknown): string {
  if (!(err instanceof ApiError)) return 'Request failed';
  if (err.status === null) return NO_SERVER_RESPONSE;
  if (err.status === 400) return err.message;
  if (err.status === 403 && err.message === DEMO_DISABLED_MESSAGE) return DEMO_DISABLED_MESSAGE;
  return 'Request failed';
}
