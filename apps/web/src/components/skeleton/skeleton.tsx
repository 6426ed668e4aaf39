import type { CSSProperties, ReactNode } from 'react';
import './skeleton.css';

type Size = number | string;

/** One grey shape standing in for text, a picture or a button while it loads. */
export function Bone({
  width,
  height,
  round,
  className,
}: {
  width?: Size;
  height?: Size;
  /** A circle (avatars, markers) rather than a rounded rectangle. */
  round?: boolean;
  className?: string;
}) {
  const style: CSSProperties = { width, height };
  return (
    <span
      className={`skeleton${round ? ' skeleton--round' : ''}${className ? ` ${className}` : ''}`}
      style={style}
    />
  );
}

/**
 * A loading region: busy for assistive technology, one visually hidden status sentence read out (the
 * loading text the spec or tests name), and the shapes of what is coming, hidden from screen readers.
 */
export function LoadingSkeleton({
  label,
  className,
  children,
}: {
  /** The whole sentence a screen reader hears, e.g. 'Loading cats...'. */
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`skeleton-region${className ? ` ${className}` : ''}`} aria-busy="true">
      <p className="visually-hidden" role="status">
        {label}
      </p>
      <div className="skeleton-region__shapes" aria-hidden="true">
        {children}
      </div>
    </div>
  );
}

/** A feed or profile card: author line, square picture, actions and a line of caption. */
export function PostCardSkeleton() {
  return (
    <div className="skeleton-card">
      <div className="skeleton-card__header">
        <Bone round width={36} height={36} />
        <Bone width="40%" height={14} />
      </div>
      <Bone className="skeleton-card__picture" />
      <div className="skeleton-card__body">
        <div className="skeleton-row">
          <Bone width={64} height={28} />
          <Bone width={64} height={28} />
        </div>
        <Bone width="85%" height={14} />
        <Bone width="30%" height={12} />
      </div>
    </div>
  );
}

/** A few post cards, as a feed or a profile's pictures start. */
export function PostListSkeleton({ count = 2 }: { count?: number }) {
  return (
    <div className="skeleton-stack">
      {Array.from({ length: count }, (_, i) => (
        <PostCardSkeleton key={i} />
      ))}
    </div>
  );
}

/** A list of rows with a small picture and two lines (notifications, groups, the Explore list). */
export function RowListSkeleton({
  count = 5,
  picture = 44,
  round = true,
}: {
  count?: number;
  picture?: number;
  round?: boolean;
}) {
  return (
    <div className="skeleton-rows">
      {Array.from({ length: count }, (_, i) => (
        <div className="skeleton-rows__row" key={i}>
          <Bone round={round} width={picture} height={picture} />
          <div className="skeleton-rows__text">
            <Bone width={`${70 - (i % 3) * 12}%`} height={14} />
            <Bone width="35%" height={12} />
          </div>
        </div>
      ))}
    </div>
  );
}

/** A cat's page: its photo and name beside a few facts, then its sightings. */
export function CatPageSkeleton() {
  return (
    <div className="skeleton-cat">
      <div className="skeleton-cat__head">
        <Bone round width={96} height={96} />
        <div className="skeleton-rows__text">
          <Bone width="50%" height={28} />
          <Bone width="70%" height={14} />
          <Bone width="40%" height={14} />
        </div>
      </div>
      <Bone width="100%" height={180} />
      <RowListSkeleton count={3} picture={56} round={false} />
    </div>
  );
}

/** A profile's header: picture, name and a line of facts. */
export function ProfileHeaderSkeleton() {
  return (
    <div className="skeleton-cat__head">
      <Bone round width={96} height={96} />
      <div className="skeleton-rows__text">
        <Bone width="45%" height={24} />
        <Bone width="65%" height={14} />
      </div>
    </div>
  );
}

/** The post page: the card's shape, with room for the comments under it. */
export function PostPageSkeleton() {
  return (
    <div className="skeleton-stack">
      <PostCardSkeleton />
      <RowListSkeleton count={2} picture={32} />
    </div>
  );
}
