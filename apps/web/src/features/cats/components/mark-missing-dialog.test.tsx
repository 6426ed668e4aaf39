import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import {
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  MISSING_MESSAGES,
  type MissingAlert,
  type MissingAlertResponse,
} from '@cats/contracts';
import { testCat } from '../../../components/cats/test-cat.ts';
import { stubGeolocation } from '../../../components/location-picker/test-geolocation.ts';
import { missingKeys } from '../../../components/missing/api/query-keys.ts';
import { clearToasts } from '../../../components/toast.tsx';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import { authStore } from '../../../lib/auth-store.ts';
import { MarkMissingDialog } from './mark-missing-dialog.tsx';
import { fromLocalInput, sightingFormProblems, toLocalInput } from './missing-form.ts';
import { ReportSightingDialog } from './report-sighting-dialog.tsx';

const HOUR = 60 * 60 * 1000;
const cat = testCat('c1', {
  name: 'Luna',
  viewer: { isCaretaker: true, canEdit: true, following: false, canFollow: true },
});
const alert: MissingAlert = {
  _id: 'a1',
  cat: { _id: 'c1', name: 'Luna', cover: null },
  lastSeenAt: new Date(Date.now() - HOUR).toISOString(),
  place: { latitude: 36.7213, longitude: -4.4214, locationPrecision: 'exact' },
  note: '',
  contact: 'report',
  raisedBy: null,
  createdAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 30 * 24 * HOUR).toISOString(),
  viewer: { isCaretaker: true, canReport: true },
};

/** The server: POSTs answer as `answer` says; every request is recorded. */
function setup(which: 'mark' | 'report', answer: (url: string, body: unknown) => Response) {
  authStore.set({ accessToken: 't', userId: 'me' });
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    if (init.method === 'POST') return answer(url, JSON.parse(String(init.body)));
    return Response.json({ message: `unexpected ${url}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const onClose = vi.fn();
  const onDemoRefused = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        {which === 'mark' ? (
          <MarkMissingDialog cat={cat} onClose={onClose} onDemoRefused={onDemoRefused} />
        ) : (
          <ReportSightingDialog catId="c1" catName="Luna" onClose={onClose} onDemoRefused={onDemoRefused} />
        )}
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
  return { client, onClose, onDemoRefused, posts };
}

const dialog = () => screen.getByRole('dialog');
const useMyLocation = async () => {
  fireEvent.click(within(dialog()).getByRole('button', { name: 'Use my current location' }));
  await screen.findByText('This is your current location, as your browser reported it.');
};

afterEach(() => {
  cleanup();
  clearToasts();
  delete (navigator as { geolocation?: unknown }).geolocation;
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('the missing forms’ checks, without zod', () => {
  it('reads and writes the datetime-local value in the browser’s time zone, and refuses dates that are not', () => {
    const at = new Date(2026, 10, 25, 9, 5);
    expect(toLocalInput(at)).toBe('2026-11-25T09:05');
    expect(fromLocalInput('2026-11-25T09:05')?.getTime()).toBe(at.getTime());
    for (const text of ['', '2026-11-25', '2026-02-31T10:00', '25/11/2026 09:05'])
      expect(fromLocalInput(text)).toBeNull();
  });

  it('answers each field with the API’s own sentence', () => {
    const now = Date.now();
    const place = { latitude: 36.7, longitude: -4.4 };
    expect(
      sightingFormProblems({ when: toLocalInput(new Date(now - HOUR)), place, note: 'Shy.' }, now),
    ).toEqual({});
    expect(
      sightingFormProblems(
        { when: toLocalInput(new Date(now + 2 * HOUR)), place: null, note: 'x'.repeat(501), contact: null },
        now,
      ),
    ).toEqual({
      when: MISSING_MESSAGES.lastSeenInFuture,
      place: MISSING_MESSAGES.placeRequired,
      note: MISSING_MESSAGES.noteTooLong,
      contact: MISSING_MESSAGES.contactInvalid,
    });
    expect(
      sightingFormProblems({ when: toLocalInput(new Date(now - 40 * 24 * HOUR)), place, note: '' }, now),
    ).toEqual({
      when: MISSING_MESSAGES.lastSeenTooOld,
    });
    expect(sightingFormProblems({ when: '', place, note: '' }, now).when).toBe(
      MISSING_MESSAGES.lastSeenInvalid,
    );
  });
});

describe('MarkMissingDialog', () => {
  it('speaks Spanish: title, contact choices and the problem at the field', async () => {
    await act(() => loadLanguage('es'));
    try {
      const { posts } = setup('mark', () => Response.json({}));
      screen.getByRole('dialog', { name: 'Marcar a Luna como perdido' });
      screen.getByText('Avísame con «He visto este gato» en la app.');
      fireEvent.click(screen.getByRole('button', { name: 'Marcar como perdido' }));
      expect(await screen.findByText('Elige el lugar en el mapa')).toBeTruthy();
      expect(posts()).toHaveLength(0);
    } finally {
      await act(() => loadLanguage('en'));
    }
  });

  it('sends nothing without a place, and says so at the field', async () => {
    const { posts } = setup('mark', () => Response.json({}));
    fireEvent.click(screen.getByRole('button', { name: 'Mark as missing' }));
    expect(await screen.findByText(MISSING_MESSAGES.placeRequired)).toBeTruthy();
    expect(posts()).toHaveLength(0);
    // Once a place is chosen, the message about having none goes.
    stubGeolocation(36.7, -4.4);
    await useMyLocation();
    expect(screen.queryByText(MISSING_MESSAGES.placeRequired)).toBeNull();
  });

  it('refuses a time in the future with the contracts’ sentence, marking the field invalid', async () => {
    stubGeolocation(36.7213, -4.4214);
    const { posts } = setup('mark', () => Response.json({}));
    await useMyLocation();
    const when = screen.getByLabelText('When was Luna last seen?');
    fireEvent.change(when, { target: { value: toLocalInput(new Date(Date.now() + 3 * HOUR)) } });
    fireEvent.click(screen.getByRole('button', { name: 'Mark as missing' }));
    expect(await screen.findByText(MISSING_MESSAGES.lastSeenInFuture)).toBeTruthy();
    expect(when.getAttribute('aria-invalid')).toBe('true');
    expect(posts()).toHaveLength(0);
  });

  it('sends the time, the place, the trimmed note and the chosen contact, and shows the alert at once', async () => {
    stubGeolocation(36.72131, -4.42144);
    const { posts, onClose, client } = setup('mark', () =>
      Response.json({ message: MISSING_MESSAGES.raised, alert }, { status: 201 }),
    );
    await useMyLocation();
    fireEvent.change(screen.getByLabelText('Note for your neighbours'), {
      target: { value: '  Red collar.  ' },
    });
    fireEvent.click(screen.getByLabelText("Send me a photo with 'I saw this cat' if you can."));
    fireEvent.click(screen.getByRole('button', { name: 'Mark as missing' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = posts()[0]!;
    expect(url).toBe('/api/cats/c1/missing');
    const body = JSON.parse(String(init!.body)) as Record<string, unknown>;
    expect(body).toMatchObject({
      place: { latitude: 36.72131, longitude: -4.42144 },
      note: 'Red collar.',
      contact: 'photo',
    });
    expect(Math.abs(Date.parse(String(body.lastSeenAt)) - Date.now())).toBeLessThan(2 * 60_000);
    expect(client.getQueryData<MissingAlertResponse>(missingKeys.alert('c1'))).toEqual({ alert });
  });

  it("keeps the server's refusal in the dialog, and hands the demo account's to the caller", async () => {
    stubGeolocation(36.7, -4.4);
    const { onClose, onDemoRefused } = setup('mark', () =>
      Response.json({ message: MISSING_MESSAGES.tooManyAlerts }, { status: 409 }),
    );
    await useMyLocation();
    fireEvent.click(screen.getByRole('button', { name: 'Mark as missing' }));
    expect((await screen.findByRole('alert')).textContent).toBe(MISSING_MESSAGES.tooManyAlerts);
    expect(onClose).not.toHaveBeenCalled();
    cleanup();

    stubGeolocation(36.7, -4.4);
    const demo = setup('mark', () => Response.json({ message: DEMO_DISABLED_MESSAGE }, { status: 403 }));
    await useMyLocation();
    authStore.set({ userId: DEMO_USER_ID });
    fireEvent.click(screen.getByRole('button', { name: 'Mark as missing' }));
    await waitFor(() => expect(demo.onDemoRefused).toHaveBeenCalled());
    expect(onDemoRefused).not.toHaveBeenCalled();
  });
});

describe("ReportSightingDialog ('I saw this cat')", () => {
  it('offers a photo through Spot with the cat chosen, and says where a report’s place goes', () => {
    setup('report', () => Response.json({}));
    expect(screen.getByRole('link', { name: 'Post a photo' }).getAttribute('href')).toBe('/spot?cat=c1');
    expect(screen.getByText("Your report's place is shared with the cat's caretakers.")).toBeTruthy();
  });

  it('checks the report like the API, then sends it without a photo', async () => {
    stubGeolocation(36.7301, -4.4102);
    const { posts, onClose } = setup('report', () =>
      Response.json({ message: MISSING_MESSAGES.reported, report: {} }, { status: 201 }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText(MISSING_MESSAGES.placeRequired)).toBeTruthy();
    await useMyLocation();
    fireEvent.change(screen.getByLabelText('Note for the caretakers (optional)'), {
      target: { value: 'Under a car.' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts()).toHaveLength(1);
    const [url, init] = posts()[0]!;
    expect(url).toBe('/api/cats/c1/missing/reports');
    expect(JSON.parse(String(init!.body))).toMatchObject({
      place: { latitude: 36.7301, longitude: -4.4102 },
      note: 'Under a car.',
    });
  });
});
