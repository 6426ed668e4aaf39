import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Post } from '@cats/contracts';
import { loadLanguage, startLanguage } from '../../i18n/i18n-store.ts';
import { authStore } from '../../lib/auth-store.ts';
import { testPost } from '../post/test-post.ts';
import { GEOLOCATION_TIMEOUT_MS } from './geolocation.ts';
import { LocationChooser, type ChosenLocation } from './location-chooser.tsx';

const NO_LOCATION = 'No location data available for this picture';
const MAP_CONFIG = { tileUrl: 'https://tiles.test/{z}/{x}/{y}.png', attribution: 'Test tiles' };

/** A screen holding the chosen place, as Spot and Edit do; every change is recorded. */
function Harness({
  initial,
  changes,
}: {
  initial: ChosenLocation | null;
  changes: (ChosenLocation | null)[];
}) {
  const [value, setValue] = useState(initial);
  return (
    <LocationChooser
      value={value}
      onChange={(next) => {
        changes.push(next);
        setValue(next);
      }}
      removable
      emptyMessage={<p>{NO_LOCATION}</p>}
    />
  );
}

/** The server in miniature: the map's tiles config and the signer's newest posts. */
function setup({
  initial = null,
  ownPosts = [],
}: { initial?: ChosenLocation | null; ownPosts?: Post[] } = {}) {
  authStore.set({ accessToken: 't', userId: 'me' });
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/config/map') return Response.json(MAP_CONFIG);
    if (url.startsWith('/api/profile/getPosts/?user=me&pagenum=1')) {
      return Response.json({ posts: ownPosts, info: { next: null, nextCursor: null } });
    }
    return Response.json({ message: `unexpected ${url}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const changes: (ChosenLocation | null)[] = [];
  render(
    <QueryClientProvider client={client}>
      <Harness initial={initial} changes={changes} />
    </QueryClientProvider>,
  );
  return { changes, fetchMock };
}

type Outcome = { coords: { latitude: number; longitude: number; accuracy: number } } | { code: 1 | 2 | 3 };

/** navigator.geolocation answering once, a tick later, as a browser does; records the options asked. */
function stubGeolocation(outcome: Outcome | undefined) {
  const asked: PositionOptions[] = [];
  const geolocation =
    outcome === undefined
      ? undefined
      : {
          getCurrentPosition: (
            success: PositionCallback,
            failure: PositionErrorCallback,
            options: PositionOptions,
          ) => {
            asked.push(options);
            setTimeout(() => {
              if ('coords' in outcome)
                success({ coords: outcome.coords, timestamp: 0 } as GeolocationPosition);
              else failure({ code: outcome.code, message: 'stub' } as GeolocationPositionError);
            }, 0);
          },
        };
  Object.defineProperty(navigator, 'geolocation', { value: geolocation, configurable: true });
  return asked;
}

const button = (name: string) => screen.getByRole('button', { name });
const readout = () => screen.getByText(/^The pin is at latitude/);
// The map's code is imported on first open: on a busy machine that alone can pass the default 1 s.
const MAP_LOAD = { timeout: 5_000 };
const mapElement = async () => {
  await screen.findByText(/^The pin is at latitude/, {}, MAP_LOAD);
  return waitFor(() => {
    const map = document.querySelector<HTMLElement>('.location-picker__map.leaflet-container');
    if (!map) throw new Error('no map yet');
    return map;
  }, MAP_LOAD);
};

afterEach(async () => {
  cleanup();
  delete (navigator as { geolocation?: unknown }).geolocation;
  vi.unstubAllGlobals();
  authStore.clear();
  await act(() => startLanguage('en'));
});

describe('LocationChooser: the current location', () => {
  it('takes the browser position, says where it came from, and asks with a timeout', async () => {
    const asked = stubGeolocation({
      coords: { latitude: 51.50721784, longitude: -0.12758621, accuracy: 20 },
    });
    const { changes } = setup();
    expect(screen.getByText(NO_LOCATION)).toBeTruthy();
    fireEvent.click(button('Use my current location'));
    expect(screen.getByRole('status').textContent).toBe('Finding your location...');
    await screen.findByText('This is your current location, as your browser reported it.');
    expect(changes).toEqual([{ latitude: 51.507218, longitude: -0.127586, accuracy: 20, source: 'device' }]);
    expect(asked).toEqual([
      { enableHighAccuracy: true, timeout: GEOLOCATION_TIMEOUT_MS, maximumAge: 60_000 },
    ]);
    expect(screen.queryByText(NO_LOCATION)).toBeNull();
    expect(screen.queryByText(/within about/)).toBeNull();
    // Now there is a place: it can be corrected or removed.
    expect(button('Change on the map')).toBeTruthy();
    fireEvent.click(button('Remove location'));
    expect(changes.at(-1)).toBeNull();
    expect(screen.getByText(NO_LOCATION)).toBeTruthy();
  });

  it('asks to check a vague position on the map', async () => {
    stubGeolocation({ coords: { latitude: 40.4168, longitude: -3.7038, accuracy: 1534 } });
    setup();
    fireEvent.click(button('Use my current location'));
    await screen.findByText('Your browser placed you to within about 1530 m, so check the place on the map.');
  });

  it.each([
    [
      1,
      "Your browser did not allow this site to use your location. Allow it in the browser's site settings, or pick the place on the map instead.",
    ],
    [
      2,
      'Your location is not available right now. Try again in a moment, or pick the place on the map instead.',
    ],
    [3, 'Finding your location took too long. Try again, or pick the place on the map instead.'],
  ] as const)('explains error %i in a sentence and keeps both choices', async (code, message) => {
    stubGeolocation({ code });
    const { changes } = setup();
    fireEvent.click(button('Use my current location'));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(changes).toEqual([]);
    expect(screen.getByText(NO_LOCATION)).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect((button('Use my current location') as HTMLButtonElement).disabled).toBe(false);
    expect(button('Pick on the map')).toBeTruthy();
  });

  it('says so when the browser has no geolocation, and clears the message on the next try', async () => {
    stubGeolocation(undefined);
    setup();
    fireEvent.click(button('Use my current location'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This browser cannot share your location. Pick the place on the map instead.',
    );
    stubGeolocation({ coords: { latitude: 1, longitude: 2, accuracy: 5 } });
    fireEvent.click(button('Use my current location'));
    expect(screen.queryByRole('alert')).toBeNull();
    await screen.findByText('This is your current location, as your browser reported it.');
  });
});

describe('LocationChooser: pick on the map', () => {
  it('opens on the default view without a last spot; arrows move the pin; Confirm keeps the place', async () => {
    const { changes } = setup();
    fireEvent.click(button('Pick on the map'));
    const map = await mapElement();
    expect(readout().textContent).toBe('The pin is at latitude 37.00000, longitude -4.50000.');
    expect(map.getAttribute('aria-label')).toBe('Map for choosing where the picture was taken');
    expect(document.activeElement).toBe(map);
    // No choice buttons while the map is open: one decision at a time.
    expect(screen.queryByRole('button', { name: 'Use my current location' })).toBeNull();

    fireEvent.keyDown(map, { key: 'ArrowRight' });
    fireEvent.keyDown(map, { key: 'ArrowUp', shiftKey: true });
    const moved = readout().textContent!;
    const [lat, lng] = moved.match(/-?\d+\.\d+/g)!.map(Number);
    expect(lng).toBeGreaterThan(-4.5);
    expect(lat).toBeGreaterThan(37);
    // Five times as far up (Shift) as right: at zoom 8, 50 px north is a larger step than 10 px east.
    expect(lat! - 37).toBeGreaterThan(lng! + 4.5);
    // Each step moves along its own axis only.
    fireEvent.keyDown(map, { key: 'ArrowLeft' });
    expect(readout().textContent).toBe(`The pin is at latitude ${lat!.toFixed(5)}, longitude -4.50000.`);
    fireEvent.keyDown(map, { key: 'ArrowRight' });

    fireEvent.click(button('Confirm location'));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ source: 'map' });
    expect(changes[0]!.latitude).toBeCloseTo(lat!, 4);
    expect(changes[0]!.longitude).toBeCloseTo(lng!, 4);
    expect(screen.getByText('You picked this location on the map.')).toBeTruthy();
    expect(screen.queryByText(/^The pin is at/)).toBeNull();
    // Focus goes back to where the map was opened from.
    await waitFor(() => expect(document.activeElement).toBe(button('Change on the map')));
  });

  it('places the pin where the map is tapped', async () => {
    setup();
    fireEvent.click(button('Pick on the map'));
    const map = await mapElement();
    const before = readout().textContent;
    fireEvent.click(map, { clientX: 40, clientY: 25 });
    expect(readout().textContent).not.toBe(before);
  });

  it('Cancel (or Escape) leaves the place as it was', async () => {
    const { changes } = setup();
    fireEvent.click(button('Pick on the map'));
    let map = await mapElement();
    fireEvent.keyDown(map, { key: 'ArrowDown' });
    fireEvent.click(button('Cancel'));
    expect(changes).toEqual([]);
    expect(screen.getByText(NO_LOCATION)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(button('Pick on the map')));

    fireEvent.click(button('Pick on the map'));
    map = await mapElement();
    fireEvent.keyDown(map, { key: 'Escape' });
    expect(screen.queryByText(/^The pin is at/)).toBeNull();
    expect(changes).toEqual([]);
  });

  it("opens on the signer's newest located post, at street level", async () => {
    setup({
      ownPosts: [
        testPost('unplaced'),
        testPost('placed', { latitude: 51.4812345, longitude: -0.1987654 }),
        testPost('older', { latitude: 10, longitude: 10 }),
      ],
    });
    fireEvent.click(button('Pick on the map'));
    await mapElement();
    expect(readout().textContent).toBe('The pin is at latitude 51.48123, longitude -0.19877.');
  });

  it('opens on the place already chosen, and says it came from the photo until it is moved', async () => {
    const { changes, fetchMock } = setup({
      initial: { latitude: 36.7213, longitude: -4.4214, source: 'photo' },
    });
    expect(screen.getByText('This location comes from the photo.')).toBeTruthy();
    fireEvent.click(button('Change on the map'));
    await mapElement();
    expect(readout().textContent).toBe('The pin is at latitude 36.72130, longitude -4.42140.');
    // The place is known: the last spot is not asked for.
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/config/map']);
    await act(async () => {
      fireEvent.click(button('Confirm location'));
    });
    expect(changes).toEqual([{ latitude: 36.7213, longitude: -4.4214, source: 'map' }]);
  });

  it('speaks Spanish, with the decimal comma in the pin’s place', async () => {
    await act(() => loadLanguage('es'));
    setup({ initial: { latitude: 36.7213, longitude: -4.4214, source: 'photo' } });
    expect(screen.getByText('Esta ubicación viene de la foto.')).toBeTruthy();
    fireEvent.click(button('Cambiar en el mapa'));
    const text = await screen.findByText(/^El marcador está en la latitud/, {}, MAP_LOAD);
    expect(text.textContent).toBe('El marcador está en la latitud 36,72130, longitud -4,42140.');
    expect(button('Confirmar la ubicación')).toBeTruthy();
  });
});
