import { useSyncExternalStore } from 'react';

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

export const authStore = {
  get: (): AuthState => state,
  set(next: Partial<AuthState>) {
    state = { ...state, ...next };
    listeners.forEach((l) => l());
  },
  clear() {
    state = EMPTY;
    listeners.forEach((l) => l());
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useAuth(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.get, authStore.get);
}

// The 'Remember me' flag lives in its own module so that boot.ts can read it without React.
export { getPersist, setPersist } from './persist-flag.ts';
