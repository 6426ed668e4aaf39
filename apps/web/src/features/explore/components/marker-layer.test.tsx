import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { MapContainer } from 'react-leaflet';
import type { MapCluster, MapMarker } from '@cats/contracts';
import { HIGHLIGHT_CLASS, MARKERS_PER_TASK, MarkerLayer, type MarkerActions } from './marker-layer.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const post = (i: number): MapMarker => ({
  _id: `post-${i}`,
  latitude: 51 + i / 1000,
  longitude: -0.1 + i / 1000,
  previewUrl: `/media/posts/${i}/64.webp`,
  catName: i % 2 ? `Cat ${i}` : null,
  username: `owner${i}`,
  createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
});
const cluster = (id: number, count: number, expansionZoom = 12): MapCluster => ({
  id: `c${id}`,
  latitude: 52,
  longitude: 0.5 + id / 100,
  count,
  expansionZoom,
  previewUrl: `/media/posts/c${id}/64.webp`,
});

function actions(): MarkerActions {
  return { openPost: vi.fn(), hoverPost: vi.fn(), zoomTo: vi.fn(), openStack: vi.fn() };
}

function Map({
  markers,
  clusters,
  on,
  highlighted,
}: {
  markers: MapMarker[];
  clusters: MapCluster[];
  on: MarkerActions;
  highlighted?: string | null;
}) {
  return (
    <MapContainer center={[51, 0]} zoom={8} style={{ width: 400, height: 400 }}>
      <MarkerLayer markers={markers} clusters={clusters} actions={on} highlighted={highlighted} />
    </MapContainer>
  );
}

const postEls = (c: HTMLElement) => [...c.querySelectorAll<HTMLElement>('.explore-marker')];
const clusterEls = (c: HTMLElement) => [...c.querySelectorAll<HTMLElement>('.explore-cluster')];

describe('MarkerLayer', () => {
  it('adds a full viewport a batch per task', () => {
    vi.useFakeTimers();
    const markers = Array.from({ length: 70 }, (_, i) => post(i));
    const { container } = render(<Map markers={markers} clusters={[cluster(1, 12)]} on={actions()} />);
    expect(postEls(container).length + clusterEls(container).length).toBe(MARKERS_PER_TASK);
    act(() => void vi.advanceTimersByTime(0));
    expect(postEls(container).length + clusterEls(container).length).toBe(2 * MARKERS_PER_TASK);
    act(() => void vi.runAllTimers());
    expect(postEls(container)).toHaveLength(70);
    expect(clusterEls(container)).toHaveLength(1);
  });

  it('draws focusable pictures with their text alternatives, and acts on click, Enter and hover', () => {
    const on = actions();
    const stack = cluster(2, 3, 99);
    const { container } = render(
      <Map markers={[post(1), post(2)]} clusters={[cluster(1, 1500), stack]} on={on} />,
    );
    const [named, unnamed] = postEls(container);
    expect(named!.getAttribute('role')).toBe('button');
    expect(named!.getAttribute('tabindex')).toBe('0');
    expect(named!.title).toBe('Photo of Cat 1');
    expect(named!.querySelector('img')!.getAttribute('alt')).toBe('Photo of Cat 1');
    expect(named!.querySelector('img')!.getAttribute('src')).toBe('/media/posts/1/64.webp');
    expect(unnamed!.title).toBe('Cat photo by owner2');

    fireEvent.mouseOver(named!);
    expect(on.hoverPost).toHaveBeenCalledWith(post(1));
    fireEvent.click(named!);
    expect(on.openPost).toHaveBeenCalledWith(post(1));
    fireEvent.keyDown(unnamed!, { key: 'Enter' });
    expect(on.openPost).toHaveBeenLastCalledWith(post(2));

    const [zooms, shows] = clusterEls(container);
    expect(zooms!.title).toBe('1500 cats spotted around here, zoom in');
    expect(zooms!.querySelector('.explore-cluster__count')!.textContent).toBe('1k');
    fireEvent.keyDown(zooms!, { key: ' ' });
    expect(on.zoomTo).toHaveBeenCalledWith(cluster(1, 1500));
    expect(shows!.classList.contains('explore-cluster--stack')).toBe(true);
    expect(shows!.title).toBe('3 cats spotted at this place, show them');
    fireEvent.click(shows!);
    expect(on.openStack).toHaveBeenCalledWith(stack);
  });

  it('keeps the element of a marker that stays, replaces one that changed, removes one that left', () => {
    const on = actions();
    const { container, rerender } = render(
      <Map markers={[post(1), post(2), post(3)]} clusters={[]} on={on} />,
    );
    const [kept, changed] = postEls(container);
    kept!.focus();
    const renamed = { ...post(2), catName: 'Renamed' };
    rerender(<Map markers={[post(1), renamed]} clusters={[]} on={on} />);
    const now = postEls(container);
    expect(now).toHaveLength(2);
    expect(now).toContain(kept);
    expect(now).not.toContain(changed);
    expect(now.map((el) => el.title).sort()).toEqual(['Photo of Cat 1', 'Photo of Renamed']);
    expect(document.activeElement).toBe(kept);
    // The kept marker runs the newest actions.
    const next = actions();
    rerender(<Map markers={[post(1), renamed]} clusters={[]} on={next} />);
    fireEvent.click(kept!);
    expect(next.openPost).toHaveBeenCalledWith(post(1));
    expect(on.openPost).not.toHaveBeenCalled();
  });

  it('highlights the marker of the hovered list item, on top, and only that one', () => {
    const on = actions();
    const markers = [post(1), post(2), post(3)];
    const { container, rerender } = render(
      <Map markers={markers} clusters={[]} on={on} highlighted={null} />,
    );
    const lit = () => postEls(container).filter((el) => el.classList.contains(HIGHLIGHT_CLASS));
    expect(lit()).toHaveLength(0);

    rerender(<Map markers={markers} clusters={[]} on={on} highlighted="post-2" />);
    expect(lit().map((el) => el.title)).toEqual(['Cat photo by owner2']);
    const z = (el: HTMLElement) => Number(el.style.zIndex);
    const [one, two] = postEls(container);
    expect(z(two!)).toBeGreaterThan(z(one!) + 1000);

    rerender(<Map markers={markers} clusters={[]} on={on} highlighted="post-3" />);
    expect(lit().map((el) => el.title)).toEqual(['Photo of Cat 3']);
    expect(z(two!)).toBeLessThan(1000);

    rerender(<Map markers={markers} clusters={[]} on={on} highlighted={null} />);
    expect(lit()).toHaveLength(0);
  });

  it('a marker arriving while its post is highlighted starts highlighted', () => {
    const on = actions();
    const { container, rerender } = render(
      <Map markers={[post(1)]} clusters={[]} on={on} highlighted="post-4" />,
    );
    rerender(<Map markers={[post(1), post(4)]} clusters={[]} on={on} highlighted="post-4" />);
    const lit = postEls(container).filter((el) => el.classList.contains(HIGHLIGHT_CLASS));
    expect(lit.map((el) => el.title)).toEqual(['Cat photo by owner4']);
  });

  it('reports the pointed-at or focused marker, and when it is left, for the list to follow', () => {
    const on = { ...actions(), highlightPost: vi.fn() };
    const { container } = render(<Map markers={[post(1), post(2)]} clusters={[]} on={on} />);
    const [first, second] = postEls(container);
    fireEvent.mouseOver(first!);
    expect(on.highlightPost).toHaveBeenLastCalledWith('post-1');
    fireEvent.mouseOut(first!);
    expect(on.highlightPost).toHaveBeenLastCalledWith(null);
    fireEvent.focus(second!);
    expect(on.highlightPost).toHaveBeenLastCalledWith('post-2');
    fireEvent.blur(second!);
    expect(on.highlightPost).toHaveBeenLastCalledWith(null);
  });
});
