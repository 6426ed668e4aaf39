import type { CatSummary } from '@cats/contracts';
import { PawIcon } from '../icons.tsx';
import { PostImage } from '../post/post-image.tsx';
import './cats.css';

/**
 * A cat's cover photo as a small square (lists, suggestions), with the usual blurred preview while it
 * loads; a paw where the cat has no photo the viewer may see. Decorative: the cat's name is beside it.
 */
export function CatThumb({ cover, size }: { cover: CatSummary['cover']; size: number }) {
  const style = { width: size, height: size };
  if (!cover) {
    return (
      <span className="cat-thumb cat-thumb--empty" style={style} aria-hidden="true">
        <PawIcon size={Math.round(size / 2)} />
      </span>
    );
  }
  return (
    <span className="cat-thumb" style={style}>
      <PostImage
        image={cover.image}
        fallbackSrc={cover.image.variants['300'] ?? cover.image.variants['800'] ?? ''}
        alt=""
        sizes={`${size}px`}
        aspectRatio="1 / 1"
      />
    </span>
  );
}
