import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import type { MapMarker } from '@cats/contracts';
import { ExploreList } from './explore-list.tsx';

afterEach(async () => {
  cleanup();
  await act(() => loadLanguage('en'));
});

const marker = (id: string, catName: string | null): MapMarker => ({
  _id: id,
  latitude: 36.5,
  longitude: -4.5,
  previewUrl: `/media/posts/${id}/64.webp`,
  catName,
  username: 'ann',
  createdAt: new Date(Date.now() - 3 * 3_600_000 - 5 * 60_000).toISOString(),
});

function setup(
  markers: MapMarker[],
  { clustered = 0, highlighted = null as string | null, loading = false } = {},
) {
  const onHighlight = vi.fn();
  const onOpen = vi.fn();
  const view = render(
    <ExploreList
      visible={{ markers, clustered }}
      loading={loading}
      highlighted={highlighted}
      onHighlight={onHighlight}
      onOpen={onOpen}
    />,
  );
  return { onHighlight, onOpen, ...view };
}

describe('ExploreList', () => {
  it('lists each visible post with its picture, cat, author and date as a button', () => {
    setup([marker('a', 'Miso'), marker('b', null)]);
    const list = screen.getByRole('complementary', { name: 'Cats on this part of the map' });
    const items = list.querySelectorAll('button');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toBe('MisoSpotted by ann3 h');
    expect(items[0]!.querySelector('img')!.getAttribute('src')).toBe('/media/posts/a/64.webp');
    expect(items[1]!.textContent).toContain('A cat without a name');
    expect(screen.getByText('2 cats are shown on the map.')).toBeTruthy();
  });

  it('highlights the marker while an item is pointed at or focused, and opens the post on click', () => {
    const miso = marker('a', 'Miso');
    const { onHighlight, onOpen } = setup([miso]);
    const item = screen.getByRole('button', { name: /Miso/ });
    fireEvent.mouseEnter(item);
    expect(onHighlight).toHaveBeenLastCalledWith('a');
    fireEvent.mouseLeave(item);
    expect(onHighlight).toHaveBeenLastCalledWith(null);
    fireEvent.focus(item);
    expect(onHighlight).toHaveBeenLastCalledWith('a');
    fireEvent.blur(item);
    expect(onHighlight).toHaveBeenLastCalledWith(null);
    fireEvent.click(item);
    expect(onOpen).toHaveBeenCalledWith(miso);
  });

  it('marks the item whose marker is highlighted', () => {
    setup([marker('a', 'Miso'), marker('b', 'Tom')], { highlighted: 'b' });
    const lit = document.querySelectorAll('.explore-list__item--highlighted');
    expect([...lit].map((el) => el.textContent?.slice(0, 3))).toEqual(['Tom']);
  });

  it('says what to do when no post is in view', () => {
    setup([]);
    expect(
      screen.getByText(
        'No cats have been spotted in this part of the map. Zoom out or move the map to find some.',
      ),
    ).toBeTruthy();
    cleanup();
    setup([], { clustered: 12 });
    expect(screen.getByText('Zoom in on the numbered circles to list the cats they hold.')).toBeTruthy();
  });

  it('shows row skeletons while the map loads', () => {
    setup([], { loading: true });
    expect(screen.getByRole('status').textContent).toBe('Loading the cats on the map...');
    expect(document.querySelectorAll('.skeleton-rows__row').length).toBeGreaterThan(0);
  });

  it('speaks Spanish', async () => {
    await act(() => loadLanguage('es'));
    setup([marker('a', 'Miso'), marker('b', null)]);
    expect(screen.getByRole('complementary', { name: 'Gatos en esta parte del mapa' })).toBeTruthy();
    expect(screen.getByText('Se muestran 2 gatos en el mapa.')).toBeTruthy();
    expect(screen.getByText('Un gato sin nombre')).toBeTruthy();
  });
});
