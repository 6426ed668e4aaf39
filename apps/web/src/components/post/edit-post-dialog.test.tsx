import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { EditPostRequest, Post } from '@cats/contracts';
import { authStore } from '../../lib/auth-store.ts';
import { EditPostDialog } from './edit-post-dialog.tsx';
import { testPost } from './test-post.ts';

const mine = (overrides: Partial<Post> = {}) =>
  testPost('p1', { user: { _id: 'me', username: 'me' }, groupIds: [], caption: 'On the wall', ...overrides });

/** The dialog against a server in miniature that records what PATCH was sent and answers the post. */
function setup(post: Post) {
  authStore.set({ accessToken: 't', userId: 'me' });
  const sent: EditPostRequest[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    if (url === '/api/config/map')
      return Response.json({ tileUrl: 'https://tiles.test/{z}/{x}/{y}.png', attribution: '' });
    if (url.startsWith('/api/profile/getPosts/'))
      return Response.json({ posts: [], info: { next: null, nextCursor: null } });
    if (url === '/api/posts/p1' && init.method === 'PATCH') {
      const body = JSON.parse(String(init.body)) as EditPostRequest;
      sent.push(body);
      return Response.json({ message: 'Picture updated', post: { ...post, ...body } });
    }
    return Response.json({ message: `unexpected ${url}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const onClose = vi.fn();
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const invalidated = vi.spyOn(client, 'invalidateQueries');
  render(
    <QueryClientProvider client={client}>
      <EditPostDialog post={post} onClose={onClose} onDemoRefused={() => {}} />
    </QueryClientProvider>,
  );
  return { sent, onClose, invalidated, fetchMock };
}

const button = (name: string) => screen.getByRole('button', { name });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('EditPostDialog: the location (issue 26)', () => {
  it('sets a place on a picture without one, picked on the map, and the maps load again', async () => {
    const { sent, onClose, invalidated } = setup(mine());
    expect(screen.getByText('This picture has no location.')).toBeTruthy();
    fireEvent.click(button('Pick on the map'));
    const map = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('.location-picker__map.leaflet-container');
      if (!el) throw new Error('no map yet');
      return el;
    });
    fireEvent.keyDown(map, { key: 'ArrowLeft' });
    // Escape in the map closes the map, not the dialog.
    fireEvent.keyDown(map, { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByText('This picture has no location.')).toBeTruthy();

    fireEvent.click(button('Pick on the map'));
    await screen.findByText(/^The pin is at/);
    fireEvent.click(button('Confirm location'));
    expect(screen.getByText('You picked this location on the map.')).toBeTruthy();
    expect(
      screen.getByText('Only you will see this location until you switch it on for the map.'),
    ).toBeTruthy();
    fireEvent.click(button('Save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ latitude: 37, longitude: -4.5 }]);
    expect(invalidated).toHaveBeenCalledWith({ queryKey: ['explore'] });
    expect(invalidated).toHaveBeenCalledWith({ queryKey: ['groups', 'map'] });
  });

  it('removes the place of a located picture, saying what saving does', async () => {
    const { sent, onClose } = setup(
      mine({ latitude: 51.5, longitude: -0.12, showLocation: true, locationPrecision: 'exact' }),
    );
    expect(screen.getByText('This is the location saved with the picture.')).toBeTruthy();
    fireEvent.click(button('Remove location'));
    expect(
      screen.getByText('Saving removes the location from this picture and from every map.'),
    ).toBeTruthy();
    fireEvent.click(button('Save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ latitude: null, longitude: null }]);
  });

  it('sends no place when it did not change, and nothing at all when nothing did', async () => {
    const { sent, onClose } = setup(mine({ latitude: 51.5, longitude: -0.12, showLocation: true }));
    fireEvent.change(screen.getByLabelText('Caption'), { target: { value: 'On the roof' } });
    fireEvent.click(button('Save'));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(sent).toEqual([{ caption: 'On the roof' }]);
    cleanup();

    const untouched = setup(mine({ latitude: 51.5, longitude: -0.12 }));
    fireEvent.click(button('Save'));
    expect(untouched.onClose).toHaveBeenCalledTimes(1);
    expect(untouched.sent).toEqual([]);
    expect(untouched.fetchMock).not.toHaveBeenCalled();
  });
});
