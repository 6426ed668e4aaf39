import {
  createContext,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import './popup-menu.css';

/**
 * An actions menu behind a '…' button (WAI-ARIA menu button pattern): the post cards' menus. Unlike
 * Dropdown (a disclosure for navigation links) it is role=menu, so it takes the arrow keys: Down and Up
 * move between items (wrapping), Home and End jump, Escape closes it with focus back on the button;
 * Tab, a press outside or focus leaving closes it too. Choosing an item closes it first, with focus on
 * the button, so a dialog the item opens gives focus back there.
 */
export function PopupMenu({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  /** Which item takes focus when the menu opens: the first, or the last (ArrowUp on the button). */
  const [initial, setInitial] = useState<'first' | 'last'>('first');
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const menuId = useId();

  const items = () => menuItems(listRef.current);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };
  const openWith = (at: 'first' | 'last') => {
    setInitial(at);
    setOpen(true);
  };

  // Below the button if it fits, else above if that fits, else below with the page scrolled to show
  // it. The fixed header and the phones' tab bar do not count as room: the page declares them as its
  // scroll padding (global.css, root-layout.css).
  useLayoutEffect(() => {
    const list = listRef.current;
    const button = buttonRef.current;
    if (!open || !list || !button) return;
    const page = getComputedStyle(document.documentElement);
    const top = parseFloat(page.scrollPaddingTop) || 0;
    const bottom = window.innerHeight - (parseFloat(page.scrollPaddingBottom) || 0);
    const at = button.getBoundingClientRect();
    const fitsBelow = at.bottom + list.offsetHeight <= bottom;
    const fitsAbove = at.top - list.offsetHeight >= top;
    list.classList.toggle('popup-menu__list--up', !fitsBelow && fitsAbove);
    if (!fitsBelow && !fitsAbove) list.scrollIntoView({ block: 'nearest' });
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const all = menuItems(listRef.current);
    (initial === 'first' ? all[0] : all[all.length - 1])?.focus();
    const onPointerDown = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, initial]);

  const onButtonKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      openWith(e.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  const onMenuKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const focus = (index: number) => all[(index + all.length) % all.length]?.focus();
    switch (e.key) {
      case 'ArrowDown':
        focus(at + 1);
        break;
      case 'ArrowUp':
        focus(at < 0 ? -1 : at - 1);
        break;
      case 'Home':
        focus(0);
        break;
      case 'End':
        focus(-1);
        break;
      case 'Escape':
        // Not the page's or a surrounding dialog's Escape as well.
        e.stopPropagation();
        close(true);
        break;
      case 'Tab':
        // Focus moves on to the next control on the page; the menu does not stay open behind it.
        setOpen(false);
        return;
      default:
        return;
    }
    e.preventDefault();
  };

  return (
    <div
      className="popup-menu"
      ref={rootRef}
      onBlur={(e) => {
        if (open && e.relatedTarget && !e.currentTarget.contains(e.relatedTarget as Node)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="popup-menu__button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openWith('first'))}
        onKeyDown={onButtonKeyDown}
      >
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
          <circle cx="5" cy="12" r="2" />
          <circle cx="12" cy="12" r="2" />
          <circle cx="19" cy="12" r="2" />
        </svg>
      </button>
      {open && (
        <MenuContext.Provider value={() => close(true)}>
          <ul
            ref={listRef}
            className="popup-menu__list"
            role="menu"
            id={menuId}
            aria-label={label}
            onKeyDown={onMenuKeyDown}
          >
            {children}
          </ul>
        </MenuContext.Provider>
      )}
    </div>
  );
}

const menuItems = (list: HTMLUListElement | null): HTMLElement[] =>
  Array.from(list?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

/** Closes the menu that holds an item, focus back on its button. */
const MenuContext = createContext<() => void>(() => {});

interface MenuItemProps {
  onSelect: () => void;
  children: ReactNode;
  /** Shown but not choosable; `hint` says why. */
  disabled?: boolean;
  /** A second line under the label (why it is disabled, what it does). */
  hint?: ReactNode;
}

/** One item of a PopupMenu. Disabled items stay focusable, so arrowing through reads why. */
export function MenuItem({ onSelect, children, disabled, hint }: MenuItemProps) {
  const close = useContext(MenuContext);
  const hintId = useId();
  return (
    <li role="none">
      <button
        type="button"
        role="menuitem"
        tabIndex={-1}
        className="popup-menu__item"
        aria-disabled={disabled || undefined}
        aria-describedby={hint ? hintId : undefined}
        onClick={() => {
          if (disabled) return;
          close();
          onSelect();
        }}
      >
        {children}
        {hint && (
          <span id={hintId} className="popup-menu__hint">
            {hint}
          </span>
        )}
      </button>
    </li>
  );
}
