import { useSyncExternalStore } from 'react';
import { forgetUser, getPersist, rememberUser } from './persist-flag.ts';

/**
 * Spec section 3: the access token lives in memory only (never in storage); the refresh token is an
 * httpOnly cookie. 'Remember me' sets the persist flag in local storage under the key `persist`.
 */
export interface AuthState {
  accessToken: string | null;
  userId: string | null;
  email: string | null;
}

const EMPTY: AuthState = { accessToken: null, userId: null, email: null };
let state: AuthState = EMPTY;
const listeners = new Set<() => void>();
/**
 * The person logged out on this page. A request still under way then (the notification stream's next
 * ticket, a refetch) must not bring the session back by refreshing with a cookie the server could not
 * be asked to revoke (logout while offline). Cleared by the next sign-in's token.
 */
let loggedOut = false;

export const authStore = {
  get: (): AuthState => state,
  set(next: Partial<AuthState>) {
    if (next.accessToken) loggedOut = false;
    state = { ...state, ...next };
    // Kept for an offline reload of a remembered session (persist-flag.ts, issue 28).
    if (next.accessToken && state.userId && getPersist()) rememberUser(state.userId);
    listeners.forEach((l) => l());
  },
  clear() {
    state = EMPTY;
    forgetUser();
    listeners.forEach((l) => l());
  },
  /** Clears the session because the person logged out: no refresh brings it back (see loggedOut). */
  logOut() {
    loggedOut = true;
    authStore.clear();
  },
  loggedOut: (): boolean => loggedOut,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/**
 * Whether someone is signed in on this page: with an access token, or (issue 28) offline with a
 * remembered session that could not be refreshed yet, whose pages the offline cache still has.
 */
export const isSignedIn = (auth: AuthState): boolean => auth.accessToken !== null || auth.userId !== null;

export function useAuth(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.get, authStore.get);
}

// The 'Remember me' flag lives in its own module so that boot.ts can read it without React.
export { getPersist, setPersist } from './persist-flag.ts';
