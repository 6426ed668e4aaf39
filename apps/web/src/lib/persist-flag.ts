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
