import { useId } from 'react';
import './logo.css';

interface LogoProps {
  /** Rendered width and height in px. */
  size?: number;
  /** Accessible name; omit when the logo sits next to text that already names it (then it is hidden). */
  title?: string;
  className?: string;
}

/**
 * Our mark: a map pin with cat ears, because the app is about where the neighbourhood's cats are.
 * Drawn on a 64 unit grid so it stays crisp from favicon size to the hero.
 */
export function Logo({ size = 40, title, className }: LogoProps) {
  const titleId = useId();
  return (
    <svg
      className={['logo', className].filter(Boolean).join(' ')}
      width={size}
      height={size}
      viewBox="0 0 64 64"
      role={title ? 'img' : undefined}
      aria-labelledby={title ? titleId : undefined}
      aria-hidden={title ? undefined : true}
      focusable="false"
    >
      {title && <title id={titleId}>{title}</title>}
      <path
        className="logo__pin"
        d="M32 62C27 54 9 43 9 28V5.5c0-1.3 1.5-2 2.5-1.2L24 13.5c2.6-.9 5.3-1.4 8-1.4s5.4.5 8 1.4l12.5-9.2c1-.8 2.5-.1 2.5 1.2V28c0 15-18 26-23 34z"
      />
      <path className="logo__ear" d="M14 11.5v9.5l6.5-4.8zM50 11.5v9.5l-6.5-4.8z" />
      <ellipse className="logo__eye" cx="23.5" cy="29" rx="5" ry="5.6" />
      <ellipse className="logo__eye" cx="40.5" cy="29" rx="5" ry="5.6" />
      <ellipse className="logo__pupil" cx="23.5" cy="29.4" rx="1.6" ry="4.2" />
      <ellipse className="logo__pupil" cx="40.5" cy="29.4" rx="1.6" ry="4.2" />
      <path
        className="logo__nose"
        d="M28.8 37.2h6.4c.7 0 1 .8.6 1.3L32.6 41.6c-.3.4-.9.4-1.2 0l-3.2-3.1c-.4-.5-.1-1.3.6-1.3z"
      />
      <path
        className="logo__whiskers"
        d="M26 41.5c-3.6-.6-7.8-.4-12 .8M26 44c-3.2.3-6.6 1.4-9.8 3.2M38 41.5c3.6-.6 7.8-.4 12 .8M38 44c3.2.3 6.6 1.4 9.8 3.2"
      />
    </svg>
  );
}
