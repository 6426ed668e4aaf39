import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { Post } from '@cats/contracts';
import { authStore } from '../../lib/auth-store.ts';
import { PostCard } from './post-card.tsx';
import { testPost } from './test-post.ts';

const NOTICE = 'Hidden from others while moderators review reports about it.';

function renderCard(post: Post, showLocationToggle = false) {
  authStore.set({ accessToken: 't', userId: 'me' });
  // The card asks nothing of the server until a control is used; any request would be a test mistake.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ message: 'unexpected request' }, { status: 500 })),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <PostCard post={post} showLocationToggle={showLocationToggle} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('moderation notice on a post card (issue 27)', () => {
  it('tells the owner their post is hidden from others pending review', () => {
    renderCard(
      testPost('p1', {
        user: { _id: 'me', username: 'me' },
        groupIds: [],
        caption: 'Tabby on the wall',
        moderation: 'pending_review',
      }),
    );
    const notice = screen.getByRole('status');
    expect(notice.textContent).toBe(NOTICE);
    // Inside the card it is about, beside its caption.
    expect(notice.closest('article')?.getAttribute('data-post-id')).toBe('p1');
    expect(screen.getByText('Tabby on the wall')).toBeTruthy();
  });

  it('shows nothing on a post that is not under review', () => {
    renderCard(testPost('p2', { user: { _id: 'me', username: 'me' }, groupIds: [], caption: 'Ginger' }));
    expect(screen.getByText('Ginger')).toBeTruthy();
    expect(screen.queryByText(NOTICE)).toBeNull();
  });

  it('tells the owner a moderator hid the location, links to why, and disables the switch', () => {
    renderCard(
      testPost('p3', {
        user: { _id: 'me', username: 'me' },
        groupIds: [],
        caption: 'By the door',
        latitude: 36.72,
        longitude: -4.42,
        showLocation: false,
        locationPrecision: 'exact',
        locationLocked: true,
      }),
      // As on the owner's profile, where the card carries the switch.
      true,
    );
    const notice = screen.getByRole('status');
    expect(notice.textContent).toBe('A moderator hid the location of this picture. Read why or appeal');
    expect(screen.getByRole('link', { name: 'Read why or appeal' }).getAttribute('href')).toBe(
      '/settings/moderation',
    );
    const toggle = screen.getByRole('switch', { name: 'Location on map' }) as HTMLButtonElement;
    expect(toggle.disabled).toBe(true);
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByRole('tooltip').textContent).toBe('A moderator hid this location');
  });
});
