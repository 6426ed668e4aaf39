import { useId, useState } from 'react';
import { useTranslate } from '../../i18n/message.tsx';

/**
 * The 'ALT' badge on a picture its author described (issue 24, "Alt text"): screen readers already
 * read the description as the image's alt; the badge shows it to everyone else, and hides it again.
 */
export function AltTextBadge({ altText }: { altText: string | null }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const t = useTranslate();
  if (!altText) return null;
  return (
    <div className="alt-badge">
      <button
        type="button"
        className="alt-badge__button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={
          open
            ? t({ id: 'post.alt.hide', defaultMessage: 'Hide the description' })
            : t({ id: 'post.alt.show', defaultMessage: 'Show the description' })
        }
        onClick={() => setOpen((o) => !o)}
      >
        {t({ id: 'post.alt.badge', defaultMessage: 'ALT' })}
      </button>
      {open && (
        // Shown to sighted readers; screen readers have it as the alt already, so it is not read twice.
        <p id={panelId} className="alt-badge__text" aria-hidden="true">
          {altText}
        </p>
      )}
    </div>
  );
}
