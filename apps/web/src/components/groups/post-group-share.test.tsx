import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { Post } from '@cats/contracts';
import { loadLanguage } from '../../i18n/i18n-store.ts';
import { PostGroupShare } from './post-group-share.tsx';

const post = (groupIds: string[]) => ({ _id: 'p1', groupIds }) as unknown as Post;

afterEach(async () => {
  cleanup();
  await act(() => loadLanguage('en'));
});

describe('PostGroupShare', () => {
  it('says how many groups a picture is shared with, in the singular and the plural', () => {
    const { rerender } = render(<PostGroupShare post={post([])} />);
    expect(screen.getByRole('button').textContent).toBe('Share with groups');
    rerender(<PostGroupShare post={post(['g1'])} />);
    expect(screen.getByRole('button').textContent).toBe('Shared with 1 group');
    rerender(<PostGroupShare post={post(['g1', 'g2'])} />);
    expect(screen.getByRole('button').textContent).toBe('Shared with 2 groups');
  });

  it('speaks Spanish', async () => {
    await act(() => loadLanguage('es'));
    const { rerender } = render(<PostGroupShare post={post([])} />);
    expect(screen.getByRole('button').textContent).toBe('Compartir con grupos');
    rerender(<PostGroupShare post={post(['g1', 'g2'])} />);
    expect(screen.getByRole('button').textContent).toBe('Compartida con 2 grupos');
  });
});
