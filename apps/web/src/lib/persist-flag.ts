/** Spec section 3: 'Remember me' sets the persist flag in local storage under the key `persist`. */
const PERSIST_KEY = 'persist';

export function getPersist(): boolean {
  try {
    return JSON.parse(localStorage.getItem(PERSIST_KEY) ?? 'false') === true;
  } catch {
    return false;
  }
}

export function setPersist(value: boolean): void {
  localStorage.setItem(PERSIST_KEY, JSON.stringify(value));
}

/**
 * Issue 28: the id of the person whose session 'Remember me' keeps, so that a reload without network
 * (the session cannot be refreshed) still opens their pages from the offline cache instead of /login.
 * Not a credential: the refresh cookie is, and nothing is fetched with this. Forgotten at logout.
 */
const REMEMBERED_USER_KEY = 'persist-user';

export function rememberUser(userId: string): void {
  try {
    localStorage.setItem(REMEMBERED_USER_KEY, userId);
  } catch {
    // Storage full or refused: only the offline reload loses its session.
  }
}

export function rememberedUser(): string | null {
  try {
    return localStorage.getItem(REMEMBERED_USER_KEY);
  } catch {
    return null;
  }
}

export function forgetUser(): void {
  try {
    localStorage.removeItem(REMEMBERED_USER_KEY);
  } catch {
    /* nothing to forget */
  }
}
