import { useEffect, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import './toast.css';

/** A short message about something that just happened, with an optional link to go on from it. */
export interface Toast {
  message: string;
  link?: { to: string; label: string };
}

const SHOW_MS = 6000;
let current: { toast: Toast; id: number } | null = null;
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/**
 * Shows a toast above every screen. It lives outside the component that asked for it: the card whose
 * deletion it reports is gone from the page by the time it shows.
 */
export function showToast(toast: Toast): void {
  current = { toast, id: nextId++ };
  emit();
}

function dismiss(id: number) {
  if (current?.id !== id) return;
  current = null;
  emit();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Where toasts appear; rendered once by the root layout. A polite live region announces each. */
export function ToastHost() {
  const shown = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => dismiss(shown.id), SHOW_MS);
    return () => clearTimeout(timer);
  }, [shown]);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {shown && (
        <div className="toast" key={shown.id}>
          <span className="toast__message">{shown.toast.message}</span>
          {shown.toast.link && (
            <Link className="toast__link" to={shown.toast.link.to} onClick={() => dismiss(shown.id)}>
              {shown.toast.link.label}
            </Link>
          )}
          <button
            type="button"
            className="toast__close"
            aria-label="Dismiss"
            onClick={() => dismiss(shown.id)}
          >
            ×
          </button>
        </div>
      )}
    </div>
  );
}
