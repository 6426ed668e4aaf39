import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { useTranslate } from '../i18n/message.tsx';
import './toast.css';

/** How long a toast stays, unless the pointer rests on it or focus is inside it. */
export const TOAST_DURATION_MS = 5_000;
/** At most this many at once; an older one gives way to a newer one. */
const MAX_TOASTS = 3;

export interface ToastOptions {
  /** What happened, as one sentence ('Post hidden.'). */
  message: string;
  /** One action, such as Undo. The toast closes when it is chosen. */
  action?: { label: string; onAction: () => void };
  /** Or a place to go on from it ('Open trash'). */
  link?: { to: string; label: string };
}

interface Toast extends ToastOptions {
  id: number;
}

// One queue for the whole app, shown by the one <ToastRegion> in the root layout: features show a
// toast with showToast() without having to render anything.
let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => toasts;

/** Shows a toast; returns its id for dismissToast. */
export function showToast(options: ToastOptions): number {
  const id = nextId++;
  toasts = [...toasts, { ...options, id }].slice(-MAX_TOASTS);
  emit();
  return id;
}

export function dismissToast(id: number): void {
  if (!toasts.some((t) => t.id === id)) return;
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

/** Removes every toast (tests; a sign-out). */
export function clearToasts(): void {
  toasts = [];
  emit();
}

/**
 * Where toasts appear. A polite live region that is always in the page (a region added together with
 * its text is often not announced), so screen readers read each toast without moving focus: the toast
 * never takes focus; its action is reachable with Tab. Render once, in the root layout.
 */
export function ToastRegion() {
  const list = useSyncExternalStore(subscribe, snapshot, snapshot);
  return (
    <div className="toast-region" role="status" aria-live="polite" aria-atomic="false">
      {list.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const ref = useRef<HTMLDivElement>(null);
  const remaining = useRef(TOAST_DURATION_MS);
  const t = useTranslate();

  // Counts down while neither hovered nor focused (WCAG 2.2.1: the person gets the time they need).
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let startedAt = 0;
    const start = () => {
      if (timer !== undefined) return;
      startedAt = Date.now();
      timer = setTimeout(() => dismissToast(toast.id), remaining.current);
    };
    const pause = () => {
      if (timer === undefined) return;
      clearTimeout(timer);
      timer = undefined;
      remaining.current = Math.max(1_000, remaining.current - (Date.now() - startedAt));
    };
    const resume = () => {
      if (!node.matches(':hover') && !node.contains(document.activeElement)) start();
    };
    const focusOut = (e: FocusEvent) => {
      if (!node.contains(e.relatedTarget as Node | null)) resume();
    };
    node.addEventListener('pointerenter', pause);
    node.addEventListener('pointerleave', resume);
    node.addEventListener('focusin', pause);
    node.addEventListener('focusout', focusOut);
    start();
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      node.removeEventListener('pointerenter', pause);
      node.removeEventListener('pointerleave', resume);
      node.removeEventListener('focusin', pause);
      node.removeEventListener('focusout', focusOut);
      // Focus inside a toast that goes away would fall to the page's start: keep it in the main area.
      if (node.contains(document.activeElement))
        document.getElementById('main')?.focus({ preventScroll: true });
    };
  }, [toast.id]);

  return (
    <div ref={ref} className="toast">
      <p className="toast__message">{toast.message}</p>
      {toast.link && (
        <Link className="toast__action toast__link" to={toast.link.to} onClick={() => dismissToast(toast.id)}>
          {toast.link.label}
        </Link>
      )}
      {toast.action && (
        <button
          type="button"
          className="toast__action"
          onClick={() => {
            dismissToast(toast.id);
            toast.action?.onAction();
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button
        type="button"
        className="toast__close"
        aria-label={t({ id: 'common.toast.dismiss', defaultMessage: 'Dismiss' })}
        onClick={() => dismissToast(toast.id)}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
