import { api } from './api-client.ts';
import { authStore } from './auth-store.ts';
import { API_CACHE, MEDIA_CACHE, SHARED_PHOTO_CACHE } from './offline-cache-rules.ts';

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
  await forgetOfflineCopies();
  try {
    await api<void>('/api/logout', { anonymous: true });
  } catch (err) {
    console.error('Logout failed:', err instanceof Error ? err.message : err);
  }
}

/**
 * Issue 28: the service worker keeps the pages this person saw (their feed, profiles, posts and
 * photos) for offline use. They are theirs alone: the next person on this device must not find them.
 * The app shell (precache) is the same for everyone and stays.
 */
export async function forgetOfflineCopies(): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    await Promise.all([API_CACHE, MEDIA_CACHE, SHARED_PHOTO_CACHE].map((name) => caches.delete(name)));
  } catch {
    // Storage unavailable (private mode): there is nothing kept to forget.
  }
}
