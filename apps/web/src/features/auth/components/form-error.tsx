import { useEffect, useRef } from 'react';
import { AlertIcon } from '../../../components/icons.tsx';

/**
 * The spec's error area (sections 2 and 8): announced (aria-live), and it takes focus when a message
 * appears (a submit failed). Rendered always, so the live region exists before it speaks.
 */
export function FormError({ message }: { message: string }) {
  const area = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) area.current?.focus();
  }, [message]);
  return (
    <div
      ref={area}
      tabIndex={-1}
      aria-live="assertive"
      className={message ? 'notice notice--error' : 'auth-card__error'}
    >
      {message && (
        <>
          <AlertIcon size={20} />
          <p className="auth-card__error-text">{message}</p>
        </>
      )}
    </div>
  );
}
