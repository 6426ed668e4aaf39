import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import './dropdown.css';

interface DropdownProps {
  /** Content of the toggle button (its accessible name). */
  label: ReactNode;
  /** Extra class on the toggle button, for example to mark the current section. */
  buttonClassName?: string;
  /** Extra attributes for the toggle button (aria-current when its section is current). */
  buttonProps?: React.ButtonHTMLAttributes<HTMLButtonElement> & { 'aria-current'?: 'true' | 'page' };
  /** Which edge the panel aligns with; 'up' opens above the button (bottom tab bars). */
  align?: 'end' | 'start';
  direction?: 'down' | 'up';
  /** The panel's content: links and buttons. Any click on a link or button inside closes it. */
  children: ReactNode;
  className?: string;
}

/**
 * A disclosure dropdown for navigation (WAI-ARIA disclosure pattern, not role=menu, so links stay links).
 * Closes on a click on anything actionable inside, a press outside, Escape (focus back on the toggle),
 * and when focus leaves it.
 */
export function Dropdown({
  label,
  buttonClassName,
  buttonProps,
  align = 'end',
  direction = 'down',
  children,
  className,
}: DropdownProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  return (
    <div
      ref={rootRef}
      className={['dropdown', className].filter(Boolean).join(' ')}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          buttonRef.current?.focus();
        }
      }}
      onBlur={(e) => {
        if (open && !e.currentTarget.contains(e.relatedTarget as Node | null) && e.relatedTarget)
          setOpen(false);
      }}
    >
      <button
        {...buttonProps}
        ref={buttonRef}
        type="button"
        className={['dropdown__toggle', buttonClassName].filter(Boolean).join(' ')}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </button>
      <div
        id={panelId}
        className={`dropdown__panel dropdown__panel--${align} dropdown__panel--${direction}`}
        hidden={!open}
        onClick={(e) => {
          if ((e.target as HTMLElement).closest('a, button')) setOpen(false);
        }}
      >
        {children}
      </div>
    </div>
  );
}
