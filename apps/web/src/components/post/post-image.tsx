import { useEffect, useState } from 'react';
import { thumbHashToAverageRGBA, thumbHashToDataURL } from 'thumbhash';
import type { PostImage as PostImageData } from '@cats/contracts';
import { afterNextPaint } from '../../lib/after-paint.ts';
import { FEED_IMAGE_SIZES, PHONE_WIDTHS, WIDE_QUERY, WIDE_WIDTHS, srcSet } from './image-sources.ts';
import './post-image.css';

/** Decoded previews by ThumbHash: a card that mounts again (Back to the feed) does not decode again. */
const decoded = new Map<string, string | undefined>();
const DECODED_KEPT = 500;

const hashBytes = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

function decodePlaceholder(base64: string): string | undefined {
  if (decoded.has(base64)) return decoded.get(base64);
  let url: string | undefined;
  try {
    url = thumbHashToDataURL(hashBytes(base64));
  } catch {
    url = undefined;
  }
  // A Map keeps insertion order: the oldest entry goes first.
  if (decoded.size >= DECODED_KEPT) decoded.delete(decoded.keys().next().value!);
  decoded.set(base64, url);
  return url;
}

/** The preview's average colour: read from the hash's header, no decoding. */
function averageColor(base64: string): string | undefined {
  try {
    const { r, g, b } = thumbHashToAverageRGBA(hashBytes(base64));
    return `rgb(${Math.round(r * 255)} ${Math.round(g * 255)} ${Math.round(b * 255)})`;
  } catch {
    return undefined;
  }
}

/**
 * The blurred preview, decoded after the first paint, one card per task. Decoding a ThumbHash into a PNG takes a few
 * milliseconds of a phone's CPU, most of the first feed render (docs/performance.md); until then the
 * frame shows the preview's average colour.
 */
function usePlaceholder(hash: string): { url?: string; color?: string } {
  const [preview, setPreview] = useState(() => (decoded.has(hash) ? { hash, url: decoded.get(hash) } : null));
  const ready = preview?.hash === hash;
  useEffect(() => {
    if (ready) return;
    // After the paint: effects of the feed's first render run in the task that paints it.
    return afterNextPaint(() => setPreview({ hash, url: decodePlaceholder(hash) }));
  }, [hash, ready]);
  return ready ? { url: preview.url } : { color: averageColor(hash) };
}

interface PostImageProps {
  image: PostImageData;
  /** The 800 px variant (spec: feed card size), used where srcset is not understood. */
  fallbackSrc: string;
  alt: string;
  /** Layout width of the image, for the browser's choice among variants. */
  sizes?: string;
  eager?: boolean;
  /** A frame of another shape (a square thumbnail, a cat's cover): the photo fills it, cropped. */
  aspectRatio?: string;
}

/**
 * A post's picture: space reserved by width/height, a ThumbHash preview underneath until the real
 * image arrives, and responsive variants so each screen downloads what it needs.
 */
export function PostImage({
  image,
  fallbackSrc,
  alt,
  sizes = FEED_IMAGE_SIZES,
  eager,
  aspectRatio,
}: PostImageProps) {
  const [loaded, setLoaded] = useState(false);
  const placeholder = usePlaceholder(image.placeholder);
  const wide = srcSet(image.variants, WIDE_WIDTHS);
  const narrow = srcSet(image.variants, PHONE_WIDTHS);
  return (
    <div
      className="post-image"
      style={{
        aspectRatio: aspectRatio ?? `${image.width} / ${image.height}`,
        backgroundImage: placeholder.url && !loaded ? `url(${placeholder.url})` : undefined,
        backgroundColor: loaded ? undefined : placeholder.color,
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
