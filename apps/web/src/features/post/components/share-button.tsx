import { useEffect, useState } from 'react';
import { Button } from '../../../components/button.tsx';

type Outcome = 'copied' | 'failed' | null;

/**
 * Shares the post's address: the system's share sheet where the browser has one (phones), else the
 * link goes to the clipboard with a word saying so.
 */
export function ShareButton({ url, title }: { url: string; title: string }) {
  const [outcome, setOutcome] = useState<Outcome>(null);

  useEffect(() => {
    if (!outcome) return;
    const timer = setTimeout(() => setOutcome(null), 4000);
    return () => clearTimeout(timer);
  }, [outcome]);

  const share = async () => {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        return;
      } catch (err) {
        // Closing the share sheet is no failure; anything else falls back to copying.
        if (err instanceof DOMException && err.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setOutcome('copied');
    } catch {
      setOutcome('failed');
    }
  };

  return (
    <span className="post-page__share">
      <Button variant="secondary" size="sm" onClick={() => void share()}>
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path d="M18 16a3 3 0 0 0-2.4 1.2l-6.7-3.4a3 3 0 0 0 0-1.6l6.7-3.4A3 3 0 1 0 15 7l-6.7 3.4a3 3 0 1 0 0 3.2L15 17a3 3 0 1 0 3-1z" />
        </svg>
        Share
      </Button>
      <span className="post-page__share-status" role="status">
        {outcome === 'copied' && 'Link copied'}
        {outcome === 'failed' && (
          <>
            Copy this link: <span className="post-page__share-url">{url}</span>
          </>
        )}
      </span>
    </span>
  );
}
