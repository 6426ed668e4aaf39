import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { NOTIFICATION_TYPES, type NotificationPreferences as Preferences } from '@cats/contracts';
import { authStore } from '../../../lib/auth-store.ts';
import { NotificationPreferences } from './notification-preferences.tsx';

const allOn = () =>
  Object.fromEntries(NOTIFICATION_TYPES.map((t) => [t, { inApp: true, push: true }])) as Preferences;

/** GET answers `allOn`; each PUT waits for the test to answer it. */
function server() {
  const puts: { body: unknown; answer: (res: Response) => Promise<void> }[] = [];
  const fetchMock = vi.fn((_url: string, init?: RequestInit) => {
    if (init?.method !== 'PUT') return Promise.resolve(Response.json({ preferences: allOn() }));
    return new Promise<Response>((resolve) => {
      puts.push({
        body: JSON.parse(init.body as string),
        answer: (res) => act(async () => resolve(res)),
      });
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return puts;
}

function setup(disabled = false) {
  authStore.set({ accessToken: 't', userId: 'me' });
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <NotificationPreferences disabled={disabled} onDemoRefused={vi.fn()} />
    </QueryClientProvider>,
  );
}
const switchOf = async (group: string, channel: string) =>
  within(await screen.findByRole('group', { name: group })).getByRole('switch', { name: channel });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('NotificationPreferences', () => {
  it('saves a switch at once and keeps it when the server agrees', async () => {
    const puts = server();
    setup();
    const likesPush = await switchOf('Likes on your pictures', 'Push');
    expect((likesPush as HTMLInputElement).checked).toBe(true);
    fireEvent.click(likesPush);
    expect((likesPush as HTMLInputElement).checked).toBe(false);
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.body).toEqual({ preferences: { like: { inApp: true, push: false } } });
    await puts[0]!.answer(Response.json({ preferences: { ...allOn(), like: { inApp: true, push: false } } }));
    expect((likesPush as HTMLInputElement).checked).toBe(false);
  });

  it('sets accepted and declined answers together', async () => {
    const puts = server();
    setup();
    fireEvent.click(await switchOf('Answers to your join requests', 'In the app'));
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.body).toEqual({
      preferences: {
        request_accepted: { inApp: false, push: true },
        request_declined: { inApp: false, push: true },
      },
    });
  });

  it('lists new sightings of the cats one follows or cares for, with both switches, saved alone', async () => {
    const puts = server();
    setup();
    const push = await switchOf('New sightings of cats you follow or care for', 'Push');
    expect((push as HTMLInputElement).checked).toBe(true);
    expect(
      (await switchOf('New sightings of cats you follow or care for', 'In the app')) as HTMLInputElement,
    ).toHaveProperty('checked', true);
    fireEvent.click(push);
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.body).toEqual({ preferences: { cat_sighting: { inApp: true, push: false } } });
  });

  it('has a pair of switches for each missing-cat notification, each saving its own type', async () => {
    for (const [label, type] of [
      ['Cats missing near your home area', 'cat_missing_nearby'],
      ['Missing cats found again', 'cat_found'],
      ['Sightings of your missing cats', 'missing_report'],
    ] as const) {
      const puts = server();
      setup();
      expect(((await switchOf(label, 'Push')) as HTMLInputElement).checked).toBe(true);
      fireEvent.click(await switchOf(label, 'In the app'));
      await vi.waitFor(() => expect(puts).toHaveLength(1));
      expect(puts[0]!.body).toEqual({ preferences: { [type]: { inApp: false, push: true } } });
      cleanup();
      vi.unstubAllGlobals();
    }
  });

  it("lists the cat suggestions on one's pictures and the answers to one's own, each saved alone", async () => {
    const puts = server();
    setup();
    const inApp = await switchOf('Suggestions of which cat your pictures show', 'In the app');
    expect((inApp as HTMLInputElement).checked).toBe(true);
    fireEvent.click(inApp);
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.body).toEqual({ preferences: { cat_suggestion: { inApp: false, push: true } } });
    fireEvent.click(await switchOf('Your cat suggestions that were accepted', 'Push'));
    await vi.waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]!.body).toEqual({
      preferences: { cat_suggestion_accepted: { inApp: true, push: false } },
    });
  });

  it('puts the switch back and says so when the server refuses', async () => {
    const puts = server();
    setup();
    const comments = await switchOf('Comments on your pictures', 'In the app');
    fireEvent.click(comments);
    expect((comments as HTMLInputElement).checked).toBe(false);
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    await puts[0]!.answer(Response.json({ message: 'Database unavailable' }, { status: 503 }));
    expect((comments as HTMLInputElement).checked).toBe(true);
    await screen.findByText('Your change was not saved: Database unavailable');
  });

  it('only moves back the switch that failed', async () => {
    const puts = server();
    setup();
    const likes = await switchOf('Likes on your pictures', 'In the app');
    const replies = await switchOf('Replies in threads you commented in', 'Push');
    fireEvent.click(likes);
    fireEvent.click(replies);
    await vi.waitFor(() => expect(puts).toHaveLength(2));
    await puts[0]!.answer(Response.json({ message: 'Nope' }, { status: 500 }));
    await vi.waitFor(() => expect((likes as HTMLInputElement).checked).toBe(true));
    await screen.findByText('Your change was not saved: Nope');
    expect((replies as HTMLInputElement).checked).toBe(false);
    await puts[1]!.answer(
      Response.json({ preferences: { ...allOn(), reply: { inApp: true, push: false } } }),
    );
    expect((replies as HTMLInputElement).checked).toBe(false);
  });

  it('shows the demo account its switches disabled, with a note', async () => {
    server();
    setup(true);
    await screen.findByText('The demo account cannot change its notifications.');
    for (const s of screen.getAllByRole('switch')) expect((s as HTMLInputElement).disabled).toBe(true);
    // Fifteen topics, each in the app and by push.
    expect(screen.getAllByRole('switch')).toHaveLength(30);
  });
});
