import { useEffect, useState } from 'react';

/**
 * An object URL for a picture chosen or cropped in the browser, released when it is replaced or the
 * screen closes. Held in state (not a memo) so StrictMode's remount never shows a revoked URL.
 */
export function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return;
    const next = URL.createObjectURL(blob);
    setUrl(next); // eslint-disable-line react-hooks/set-state-in-effect -- mirrors an external resource
    return () => {
      URL.revokeObjectURL(next);
      setUrl(null);
    };
  }, [blob]);
  return blob ? url : null;
}
