import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Statement } from '@cats/contracts';
import { StatementCard } from './statement-card.tsx';

const removal: Statement = {
  _id: '0b9a1c55-2f0e-4c43-9a57-1c1a5d3f7e01',
  action: 'remove',
  targetType: 'post',
  targetId: 'p1',
  excerpt: 'Luna at the front door.',
  thumbnailUrl: '/media/posts/abc/300.webp',
  rule: 'private_information',
  explanation: 'The house number is readable.',
  createdAt: '2026-11-20T10:00:00.000Z',
  suspendedUntil: null,
  reverted: false,
  appeal: null,
  appealDeadline: '2026-12-10T10:00:00.000Z',
  canAppeal: true,
};

function setup(statement: Statement, name = 'A moderator removed your picture.') {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <StatementCard statement={statement} highlighted={false} onDemoRefused={vi.fn()} />
    </QueryClientProvider>,
  );
  return screen.getByRole('article', { name });
}

afterEach(cleanup);

/** Issue 46: once the post is purged its files are gone, and the server names no picture. */
describe('StatementCard without its picture', () => {
  it('shows the words of the post and says the picture is gone when the server names none', () => {
    const card = setup({ ...removal, thumbnailUrl: null });
    expect(within(card).queryByRole('img')).toBeNull();
    expect(within(card).getByText('Luna at the front door.')).toBeTruthy();
    expect(within(card).getByText('This picture is no longer available.')).toBeTruthy();
    // The rest of the statement and the appeal are all there.
    expect(within(card).getByText('Why: The house number is readable.')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Appeal' })).toBeTruthy();
  });

  it('leaves out a picture that fails to load, rather than a broken image', () => {
    const card = setup(removal);
    const img = within(card).getByRole('img', { name: 'Your picture, as it was reported' });
    expect(within(card).queryByText('This picture is no longer available.')).toBeNull();
    fireEvent.error(img);
    expect(within(card).queryByRole('img')).toBeNull();
    expect(within(card).getByText('Luna at the front door.')).toBeTruthy();
    expect(within(card).getByText('This picture is no longer available.')).toBeTruthy();
  });

  it('says nothing of a picture for a decision about a comment', () => {
    const card = setup(
      { ...removal, targetType: 'comment', thumbnailUrl: null },
      'A moderator removed your comment.',
    );
    expect(within(card).queryByText('This picture is no longer available.')).toBeNull();
    expect(within(card).getByText('Luna at the front door.')).toBeTruthy();
  });
});
