import type { Ref } from 'react';
import { AlertIcon } from '../../../components/icons.tsx';

/**
 * The spec's error area (sections 2 and 8): announced (aria-live) and focusable so the screen can move
 * focus to it when a submit fails. Rendered always, so the live region exists before it speaks.
 */
export function FormError({ message, ref }: { message: string; ref?: Ref<HTMLDivElement> }) {
  return (
    <div
      ref={ref}
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
