import { api } from './api-client.ts';
import { authStore } from './auth-store.ts';

/**
 * Ends the session on this device (spec section 4): clears the in-memory auth, then asks the server to
 * revoke the refresh token and clear its cookie. A failed logout call is only logged (spec section 8):
 * the person is logged out locally either way.
 */
export async function endSession(): Promise<void> {
  authStore.clear();
  try {
    await api<void>('/api/logout', { anonymous: true });
  } catch (err) {
    console.error('Logout failed:', err instanceof Error ? err.message : err);
  }
}
