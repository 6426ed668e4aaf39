import { useMemo, useState } from 'react';
import { thumbHashToDataURL } from 'thumbhash';
import type { PostImage as PostImageData } from '@cats/contracts';
import { FEED_IMAGE_SIZES, PHONE_WIDTHS, WIDE_QUERY, WIDE_WIDTHS, srcSet } from './image-sources.ts';

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
export function PostImage({ image, fallbackSrc, alt, sizes = FEED_IMAGE_SIZES, eager }: PostImageProps) {
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
          // The eager image (the first on screen, the page's largest paint) is shown as it arrives; the
          // others fade in over their placeholder once loaded. Waiting for onLoad there cost the feed
          // over a second of Lighthouse's render delay on a busy phone (docs/performance.md).
          className={`post-image__img${loaded || eager ? ' post-image__img--loaded' : ''}`}
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
