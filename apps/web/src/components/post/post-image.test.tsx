import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { rgbaToThumbHash } from 'thumbhash';
import type { PostImage as PostImageData } from '@cats/contracts';
import { PostImage } from './post-image.tsx';

afterEach(cleanup);

/** The ThumbHash of a 4 × 3 picture, orange on top and grey below. */
function hashOf(): string {
  const rgba = new Uint8Array(4 * 3 * 4);
  for (let i = 0; i < 12; i += 1) {
    const top = i < 8;
    rgba.set(top ? [230, 120, 20, 255] : [90, 90, 90, 255], i * 4);
  }
  return btoa(String.fromCharCode(...rgbaToThumbHash(4, 3, rgba)));
}

const image = (placeholder: string): PostImageData => ({
  width: 1200,
  height: 900,
  placeholder,
  variants: { '300': '/media/a/300.webp', '400': '/media/a/400.webp', '800': '/media/a/800.webp' },
});

describe('PostImage', () => {
  it("paints the preview's average colour first, then the decoded preview", async () => {
    const hash = hashOf();
    // Server rendering runs no effects: what the first paint shows.
    const first = renderToString(<PostImage image={image(hash)} fallbackSrc="/x.webp" alt="Photo of Tom" />);
    expect(first).toMatch(/background-color:rgb\(\d+ \d+ \d+\)/);
    expect(first).not.toContain('data:image/png');

    const { container } = render(<PostImage image={image(hash)} fallbackSrc="/x.webp" alt="Photo of Tom" />);
    const frame = container.querySelector<HTMLElement>('.post-image')!;
    expect(frame.style.backgroundColor).toMatch(/^rgb\(/);
    await waitFor(() => expect(frame.style.backgroundImage).toMatch(/^url\("?data:image\/png;base64,/));
    const img = container.querySelector('img')!;
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['1200', '900']);
  });

  it('keeps the plain frame for a placeholder that is not a ThumbHash', async () => {
    const { container } = render(
      <PostImage image={image('not base64!')} fallbackSrc="/x.webp" alt="Photo of Tom" />,
    );
    const frame = container.querySelector<HTMLElement>('.post-image')!;
    await new Promise((resolve) => setTimeout(resolve, 50)); // past the decoding attempt
    expect(frame.style.backgroundImage).toBe('');
    expect(frame.style.backgroundColor).toBe('');
    expect(frame.style.aspectRatio).toBe('1200 / 900');
  });
});
