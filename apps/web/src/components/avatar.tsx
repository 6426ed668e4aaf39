import { useState } from 'react';
import './avatar.css';

interface AvatarProps {
  /** Picture URL (the 72 px avatar or the 300 px profile picture); the default cat face when missing. */
  src?: string | null;
  /** Text alternative; '' (default) when the name is written next to the avatar. */
  alt?: string;
  /** Rendered size in px. */
  size?: number;
  className?: string;
}

/** A round user picture with our default avatar when none is set or it fails to load (spec section 3). */
export function Avatar({ src, alt = '', size = 40, className }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const classes = ['avatar', className].filter(Boolean).join(' ');
  if (src && failedSrc !== src) {
    return (
      <img
        className={classes}
        src={src}
        alt={alt}
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        onError={() => setFailedSrc(src)}
      />
    );
  }
  return (
    <svg
      className={`${classes} avatar--default`}
      width={size}
      height={size}
      viewBox="0 0 40 40"
      role={alt ? 'img' : undefined}
      aria-label={alt || undefined}
      aria-hidden={alt ? undefined : true}
      focusable="false"
    >
      <circle cx="20" cy="20" r="20" fill="#e9e3f5" />
      <path
        fill="#8d82b5"
        d="M20 36c-7.5 0-12-4.2-12-10.5V12.6c0-.8.9-1.2 1.5-.7l4.8 4.2c1.8-.7 3.7-1 5.7-1s3.9.3 5.7 1l4.8-4.2c.6-.5 1.5-.1 1.5.7v12.9C32 31.8 27.5 36 20 36z"
      />
      <circle cx="15.6" cy="24" r="1.7" fill="#e9e3f5" />
      <circle cx="24.4" cy="24" r="1.7" fill="#e9e3f5" />
    </svg>
  );
}
