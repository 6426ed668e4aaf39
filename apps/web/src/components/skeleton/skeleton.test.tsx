import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import {
  CatPageSkeleton,
  LoadingSkeleton,
  PostListSkeleton,
  PostPageSkeleton,
  RowListSkeleton,
} from './skeleton.tsx';

afterEach(cleanup);

describe('LoadingSkeleton', () => {
  it('is a busy region that says one loading sentence and hides its shapes from screen readers', () => {
    const { container } = render(
      <LoadingSkeleton label="Loading cats...">
        <PostListSkeleton count={3} />
      </LoadingSkeleton>,
    );
    const region = container.firstElementChild as HTMLElement;
    expect(region.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Loading cats...');
    expect(screen.getByRole('status').className).toBe('visually-hidden');
    const shapes = region.querySelector('.skeleton-region__shapes')!;
    expect(shapes.getAttribute('aria-hidden')).toBe('true');
    // Shaped like what is coming: three cards, each with a square picture.
    expect(shapes.querySelectorAll('.skeleton-card')).toHaveLength(3);
    expect(shapes.querySelectorAll('.skeleton-card__picture')).toHaveLength(3);
    // Nothing but the sentence is readable text.
    expect(region.textContent).toBe('Loading cats...');
  });

  it('draws rows, a post page and a cat page without any text of their own', () => {
    const { container } = render(
      <>
        <RowListSkeleton count={4} />
        <PostPageSkeleton />
        <CatPageSkeleton />
      </>,
    );
    expect(container.querySelectorAll('.skeleton-rows__row').length).toBeGreaterThanOrEqual(4);
    expect(container.querySelectorAll('.skeleton--round').length).toBeGreaterThan(0);
    expect(container.textContent).toBe('');
  });
});
