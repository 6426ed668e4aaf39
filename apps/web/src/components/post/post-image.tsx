import { useMemo, useState } from 'react';
import { thumbHashToDataURL } from 'thumbhash';
import type { PostImage as PostImageData } from '@cats/contracts';

/** Narrow screens choose among these; 1600 px is only offered on wide layouts (phones never get it). */
const PHONE_WIDTHS = [300, 400, 800] as const;
const WIDE_WIDTHS = [400, 800, 1600] as const;
/** Above this viewport width the card stops growing with the screen (var(--content-width)). */
const WIDE_QUERY = '(min-width: 641px)';

function srcSet(variants: Record<string, string>, widths: readonly number[]): string {
  return widths
    .filter((w) => variants[String(w)])
    .map((w) => `${variants[String(w)]} ${w}w`)
    .join(', ');
}

function decodePlaceholder(base64: string): string | undefined {
  try {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return thumbHashToDataURL(bytes);
  } catch {
    return undefined;
  }
}

interface PostImageProps {
  image: PostImageData;
  /** The 800 px variant (spec: feed card size), used where srcset is not understood. */
  fallbackSrc: string;
  alt: string;
  /** Layout width of the image, for the browser's choice among variants. */
  sizes?: string;
  eager?: boolean;
}

/**
 * A post's picture: space reserved by width/height, a ThumbHash preview underneath until the real
 * image arrives, and responsive variants so each screen downloads what it needs.
 */
export function PostImage({
  image,
  fallbackSrc,
  alt,
  sizes = '(min-width: 641px) 640px, 100vw',
  eager,
}: PostImageProps) {
  const [loaded, setLoaded] = useState(false);
  const placeholder = useMemo(() => decodePlaceholder(image.placeholder), [image.placeholder]);
  const wide = srcSet(image.variants, WIDE_WIDTHS);
  const narrow = srcSet(image.variants, PHONE_WIDTHS);
  return (
    <div
      className="post-image"
      style={{
        aspectRatio: `${image.width} / ${image.height}`,
        backgroundImage: placeholder && !loaded ? `url(${placeholder})` : undefined,
      }}
    >
      <picture>
        {wide && <source media={WIDE_QUERY} srcSet={wide} sizes={sizes} />}
        <img
          className={`post-image__img${loaded ? ' post-image__img--loaded' : ''}`}
          src={image.variants['800'] ?? fallbackSrc}
          srcSet={narrow || undefined}
          sizes={sizes}
          width={image.width}
          height={image.height}
          alt={alt}
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={eager ? 'high' : undefined}
          decoding="async"
          onLoad={() => setLoaded(true)}
        />
      </picture>
    </div>
  );
}
