import { useSyncExternalStore } from 'react';

/**
 * Whether the browser believes it is online (issue 28): `navigator.onLine` and its online/offline
 * events. It can only say that there is no network at all; a request can still fail while it says
 * true, so callers treat a network error as offline too.
 */
function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

const getSnapshot = () => navigator.onLine;
// Rendered on the server nowhere today; online is the safe guess for a first paint.
const getServerSnapshot = () => true;

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}
