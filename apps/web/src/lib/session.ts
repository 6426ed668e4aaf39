import { api } from './api-client.ts';
import { authStore } from './auth-store.ts';

/**
 * Ends the session on this device (spec section 4): clears the in-memory auth, then asks the server to
 * revoke the refresh token and clear its cookie. A failed logout call is only logged (spec section 8):
 * the person is logged out locally either way. This device's push subscription goes first, while the
 * token still works: the next person on the device must not be shown this one's notifications
 * (`accountDeleted`: the server has already forgotten it, with the account).
 */
export async function endSession({ accountDeleted = false } = {}): Promise<void> {
  try {
    // Loaded when needed: logging out is rare, and every page's first load carries this module.
    const { forgetThisDevice } = await import('./web-push.ts');
    await forgetThisDevice({ tellServer: !accountDeleted });
  } catch {
    // Its code could not be loaded (offline, a new version deployed): logged out all the same.
  }
  authStore.logOut();
  try {
    await api<void>('/api/logout', { anonymous: true });
  } catch (err) {
    console.error('Logout failed:', err instanceof Error ? err.message : err);
  }
}
