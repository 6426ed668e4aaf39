import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import {
  APPEAL_MESSAGES,
  MODERATION_MESSAGES,
  type ModerationQueueResponse,
  type ModerationAction,
  type ModeratorAppeal,
  type ModerationStats,
  type QueueGroup,
  type Role,
} from '@cats/contracts';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import { authStore } from '../../../lib/auth-store.ts';
import ModerationPage from './moderation-page.tsx';

const HOUR = 3600;
const group: QueueGroup = {
  reportId: 'r1',
  targetType: 'post',
  targetId: 'p1',
  author: { _id: 'u-author', username: 'gato_malaga' },
  snapshot: {
    pictureUrl: '/api/moderation/reports/r1/picture',
    caption: 'Pimienta found the only shade in town.',
    catName: 'Pimienta',
    altText: null,
    text: null,
    username: 'gato_malaga',
    name: null,
    description: null,
  },
  reports: [
    {
      _id: 'r1',
      reporter: { _id: 'u-tom', username: 'tom.tabby' },
      reason: 'private_information',
      note: 'The photo shows my door.',
      createdAt: new Date(Date.now() - 3 * HOUR * 1000).toISOString(),
      updatedAt: new Date(Date.now() - 3 * HOUR * 1000).toISOString(),
    },
  ],
  oldestReportAt: new Date(Date.now() - 3 * HOUR * 1000).toISOString(),
  strikeCount: 1,
  strikes: [
    {
      _id: 'a1',
      action: 'warn',
      rule: 'spam',
      targetType: 'post',
      explanation: 'Please stop posting adverts.',
      createdAt: new Date(Date.now() - 48 * HOUR * 1000).toISOString(),
    },
  ],
  notes: [
    {
      _id: 'n1',
      author: { _id: 'u-mod', username: 'whisker_watch' },
      body: 'Asked the author to crop it.',
      createdAt: new Date().toISOString(),
    },
  ],
};

const appeal: ModeratorAppeal = {
  _id: 'ap1',
  body: 'The door in the picture is not mine: it is the vet on Calle Larios.',
  createdAt: new Date(Date.now() - HOUR * 1000).toISOString(),
  appellant: { _id: 'u-author', username: 'gato_malaga' },
  decision: {
    _id: 'a2',
    action: 'remove',
    targetType: 'post',
    targetId: 'p2',
    rule: 'private_information',
    explanation: 'It shows a front door.',
    createdAt: new Date(Date.now() - 24 * HOUR * 1000).toISOString(),
    moderator: { _id: 'me', username: 'me' },
    excerpt: 'Luna at the door.',
    thumbnailUrl: '/media/posts/def/300.webp',
  },
  decidedByYou: true,
};

const logEntry = (id: string, action: ModerationAction['action'], reverted: boolean): ModerationAction => ({
  _id: id,
  reportId: 'r0',
  moderator: { _id: 'u-mod', username: 'whisker_watch' },
  action,
  targetType: 'post',
  targetId: 'p0',
  targetUserId: 'u-author',
  rule: action === 'dismiss' ? null : 'private_information',
  explanation: action === 'dismiss' ? '' : `Explained ${id}`,
  suspendDays: action === 'suspend' ? 7 : null,
  revertsActionId: null,
  reverted,
  createdAt: new Date(Date.now() - HOUR * 1000).toISOString(),
});

function api({
  role = 'moderator' as Role,
  oldestAge = 3 * HOUR,
  actions = () => Response.json({ actions: [] }) as Response,
  appeals = [] as ModeratorAppeal[],
  decide = () => Response.json({ appeal: {} }) as Response,
  restore = () => Response.json({}) as Response,
  picture = () => new Response('webp bytes', { headers: { 'content-type': 'image/webp' } }),
} = {}) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/profile/getMyProfile')
      return Response.json({ _id: 'me', username: 'me', isDemo: false, role });
    if (url === '/api/moderation/reports/r1/picture') return picture();
    if (url.startsWith('/api/moderation/reports/r1/actions')) return actions();
    if (role === 'member')
      return Response.json({ message: MODERATION_MESSAGES.notModerator }, { status: 403 });
    if (url === '/api/moderation/appeals') return Response.json({ appeals });
    if (url === '/api/moderation/log')
      return Response.json({
        entries: [logEntry('l2', 'strip_location', false), logEntry('l1', 'dismiss', false)],
        nextCursor: 'c1',
      });
    if (url === '/api/moderation/log?cursor=c1')
      return Response.json({ entries: [logEntry('l0', 'suspend', true)], nextCursor: null });
    if (url === '/api/moderation/actions/l2/restore') return restore();
    if (url === `/api/moderation/appeals/${appeal._id}/decision`) return decide();
    if (url.startsWith('/api/moderation/reports'))
      return Response.json({ groups: [group], nextCursor: null } satisfies ModerationQueueResponse);
    if (url === '/api/moderation/stats')
      return Response.json({
        openReports: 1,
        oldestOpenReportAt: new Date(Date.now() - oldestAge * 1000).toISOString(),
        oldestOpenReportAgeSeconds: oldestAge,
        medianSecondsToFirstAction: 2 * HOUR,
      } satisfies ModerationStats);
    if (url === '/api/moderation/staff')
      return Response.json({
        staff: [
          { _id: 'me', username: 'me', role: 'admin' },
          { _id: 'u-mod', username: 'whisker_watch', role: 'moderator' },
        ],
      });
    throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  const calls = (method: string) =>
    fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method);
  return { fetchMock, calls };
}

function setup() {
  authStore.set({ accessToken: 't', userId: 'me' });
  // jsdom has no object URLs: the picture's Blob gets a stand-in one.
  vi.stubGlobal(
    'URL',
    Object.assign(class extends URL {}, {
      createObjectURL: vi.fn(() => 'blob:report-picture'),
      revokeObjectURL: vi.fn(),
    }),
  );
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/moderation']}>
        <ModerationPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('ModerationPage', () => {
  it('tells members plainly that the page is for moderators, and asks the queue nothing', async () => {
    const { fetchMock } = api({ role: 'member' });
    setup();
    expect(await screen.findByText('Only moderators can see this page.')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/profile/getMyProfile']);
  });

  it('shows a reported thing as reported: the picture and caption, the reporter and note, strikes and notes', async () => {
    const { fetchMock } = api();
    setup();
    const card = await screen.findByRole('article', { name: 'Post by gato_malaga' });
    // Fetched with the token (an <img> cannot send it, issue 46), shown from an object URL.
    const picture = await within(card).findByRole('img', { name: 'Photo of Pimienta' });
    expect(picture.getAttribute('src')).toBe('blob:report-picture');
    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/moderation/reports/r1/picture')!;
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer t');
    expect(within(card).getByText('Pimienta found the only shade in town.')).toBeTruthy();
    expect(within(card).getByText('tom.tabby')).toBeTruthy();
    expect(within(card).getByText(/Shows someone's home or private information/)).toBeTruthy();
    expect(within(card).getByText('The photo shows my door.')).toBeTruthy();
    expect(within(card).getByRole('heading', { name: '1 earlier strike' })).toBeTruthy();
    expect(within(card).getByText('Please stop posting adverts.')).toBeTruthy();
    expect(within(card).getByText('Asked the author to crop it.')).toBeTruthy();
    // Moderators see no Team section; no warning for a report 3 hours old.
    expect(screen.queryByRole('heading', { name: 'Team' })).toBeNull();
    expect(screen.queryByText(/has waited more than 20 hours/)).toBeNull();
  });

  it('says so when the reported picture cannot be loaded, and keeps the rest of the card', async () => {
    api({
      picture: () => Response.json({ message: 'This report has no picture' }, { status: 404 }),
    });
    setup();
    const card = await screen.findByRole('article', { name: 'Post by gato_malaga' });
    expect(await within(card).findByText('The picture could not be loaded.')).toBeTruthy();
    expect(within(card).queryByRole('img')).toBeNull();
    expect(within(card).getByText('Pimienta found the only shade in town.')).toBeTruthy();
  });

  it('warns when the oldest report has waited more than 20 hours, and shows admins the team', async () => {
    api({ role: 'admin', oldestAge: 21 * HOUR });
    setup();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The oldest report has waited more than 20 hours.',
    );
    expect(await screen.findByRole('heading', { name: 'Team' })).toBeTruthy();
    const moderatorRow = (await screen.findByText('whisker_watch', { selector: '.team__name' })).closest(
      'li',
    )!;
    expect(within(moderatorRow).getByRole('button', { name: 'Remove moderator' })).toBeTruthy();
    const meRow = screen.getByText('me', { selector: '.team__name' }).closest('li')!;
    expect(within(meRow).queryByRole('button')).toBeNull();
  });

  it("sends the chosen actions with the rule and explanation, and shows the server's refusal", async () => {
    const { calls } = api({
      actions: () => Response.json({ message: 'Nobody can act on an admin' }, { status: 403 }),
    });
    setup();
    const card = await screen.findByRole('article', { name: 'Post by gato_malaga' });
    fireEvent.click(within(card).getByRole('checkbox', { name: 'Remove' }));
    fireEvent.click(within(card).getByRole('checkbox', { name: 'Suspend the author' }));
    fireEvent.change(within(card).getByRole('combobox', { name: 'How long' }), { target: { value: '30' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Apply' }));
    // The explanation is required for anything but a dismissal.
    expect(within(card).getByRole('alert').textContent).toBe(
      'Say why: the person affected reads this explanation.',
    );
    expect(calls('POST')).toEqual([]);
    fireEvent.change(within(card).getByLabelText('Explanation for the person affected'), {
      target: { value: 'It shows a front door.' },
    });
    fireEvent.click(within(card).getByRole('button', { name: 'Apply' }));
    expect((await within(card).findByText('Nobody can act on an admin')).getAttribute('role')).toBe('alert');
    const [[url, init]] = calls('POST') as [[string, RequestInit]];
    expect(url).toBe('/api/moderation/reports/r1/actions');
    expect(JSON.parse(String(init.body))).toEqual({
      actions: [
        { action: 'remove', rule: 'private_information', explanation: 'It shows a front door.' },
        {
          action: 'suspend',
          rule: 'private_information',
          explanation: 'It shows a front door.',
          suspendDays: 30,
        },
      ],
    });
  });

  it('lists open appeals with the decision, its moderator, the rule and the appeal; empty says so', async () => {
    api();
    setup();
    expect(await screen.findByText('No appeal is waiting.')).toBeTruthy();
    cleanup();
    api({ appeals: [appeal] });
    setup();
    const card = await screen.findByRole('article', { name: 'Appeal by gato_malaga' });
    expect(within(card).getByText('Removed').closest('p')!.textContent).toMatch(
      /^Removed · Post · Shows someone's home or private information · by me,/,
    );
    expect(within(card).getByText('You took this decision.')).toBeTruthy();
    expect(within(card).getByText('Why: It shows a front door.')).toBeTruthy();
    expect(within(card).getByText('Luna at the door.')).toBeTruthy();
    expect(within(card).getByRole('img', { name: 'The picture, as reported' }).getAttribute('src')).toBe(
      '/media/posts/def/300.webp',
    );
    expect(within(card).getByText(appeal.body)).toBeTruthy();
  });

  it('shows an appeal without its picture once the post is purged, or when the picture fails to load', async () => {
    const purged: ModeratorAppeal = { ...appeal, decision: { ...appeal.decision, thumbnailUrl: null } };
    api({ appeals: [purged] });
    setup();
    let card = await screen.findByRole('article', { name: 'Appeal by gato_malaga' });
    expect(within(card).queryByRole('img')).toBeNull();
    expect(within(card).getByText('Luna at the door.')).toBeTruthy();
    cleanup();
    api({ appeals: [appeal] });
    setup();
    card = await screen.findByRole('article', { name: 'Appeal by gato_malaga' });
    fireEvent.error(within(card).getByRole('img', { name: 'The picture, as reported' }));
    expect(within(card).queryByRole('img')).toBeNull();
    expect(within(card).getByText('Luna at the door.')).toBeTruthy();
  });

  it("answers an appeal with the outcome and explanation, and shows the server's refusal", async () => {
    let answer = () => Response.json({ message: APPEAL_MESSAGES.sameModerator }, { status: 403 });
    const { calls } = api({ appeals: [appeal], decide: () => answer() });
    setup();
    const card = await screen.findByRole('article', { name: 'Appeal by gato_malaga' });
    fireEvent.change(within(card).getByLabelText('Explanation for the person who appealed'), {
      target: { value: 'The vet confirmed it.' },
    });
    fireEvent.click(within(card).getByRole('button', { name: 'Undo the decision' }));
    expect((await within(card).findByRole('alert')).textContent).toBe(APPEAL_MESSAGES.sameModerator);
    const [[url, init]] = calls('POST') as [[string, RequestInit]];
    expect(url).toBe('/api/moderation/appeals/ap1/decision');
    expect(JSON.parse(String(init.body))).toEqual({
      outcome: 'overturned',
      explanation: 'The vet confirmed it.',
    });

    answer = () =>
      Response.json({
        appeal: {
          _id: 'ap1',
          body: appeal.body,
          createdAt: appeal.createdAt,
          decidedAt: '',
          outcome: 'upheld',
        },
      });
    fireEvent.click(within(card).getByRole('button', { name: 'Keep the decision' }));
    expect(
      (await screen.findByText('The decision stands and gato_malaga is told.')).getAttribute('role'),
    ).toBe('status');
    expect(JSON.parse(String((calls('POST')[1] as [string, RequestInit])[1].body))).toEqual({
      outcome: 'upheld',
      explanation: 'The vet confirmed it.',
    });
  });

  it('opens the audit log on demand, newest first with more on request, and undoes an action', async () => {
    let answer = () => Response.json({ message: 'This action has already been undone' }, { status: 409 });
    const { fetchMock, calls } = api({ restore: () => answer() });
    setup();
    const log = await screen.findByRole('region', { name: 'Audit log' });
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/moderation/log'))).toBe(false);
    fireEvent.click(within(log).getByRole('button', { name: 'Show the audit log' }));
    const first = await within(log).findByText('Why: Explained l2');
    const row = first.closest('li')!;
    expect(row.textContent).toMatch(
      /^whisker_watch · Location removed · Post · Shows someone's home or private information · /,
    );
    // A dismissal changed nothing: nothing to undo.
    const dismissal = log.querySelector('[data-action-id="l1"]')!;
    expect(within(dismissal as HTMLElement).queryByRole('button', { name: 'Undo' })).toBeNull();
    fireEvent.click(within(log).getByRole('button', { name: 'Show more' }));
    const older = (await within(log).findByText('Why: Explained l0')).closest('li')!;
    expect(older.textContent).toContain('Suspended for 7 days');
    expect(within(older).getByText('undone')).toBeTruthy();
    expect(within(older).queryByRole('button', { name: 'Undo' })).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: 'Undo' }));
    fireEvent.change(within(row).getByLabelText('Why undo it (the person affected reads this)'), {
      target: { value: 'The door was the vet.' },
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Confirm undo' }));
    expect((await within(row).findByRole('alert')).textContent).toBe('This action has already been undone');
    answer = () => Response.json(logEntry('l3', 'restore', false));
    fireEvent.click(within(row).getByRole('button', { name: 'Confirm undo' }));
    expect(
      await within(log).findByText('The action is undone and the person affected is told.'),
    ).toBeTruthy();
    const [url, init] = calls('POST').at(-1) as [string, RequestInit];
    expect(url).toBe('/api/moderation/actions/l2/restore');
    expect(JSON.parse(String(init.body))).toEqual({ explanation: 'The door was the vet.' });
  });
});

describe('ModerationPage in Spanish', () => {
  afterEach(() => act(() => loadLanguage('en')));

  it('shows the queue, its health and the decision form in Spanish, with plurals', async () => {
    await act(() => loadLanguage('es'));
    api({ oldestAge: 21 * HOUR });
    setup();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'La denuncia más antigua lleva esperando más de 20 horas.',
    );
    const card = await screen.findByRole('article', { name: 'Publicación de gato_malaga' });
    expect(within(card).getByRole('img', { name: 'Foto de Pimienta' })).toBeTruthy();
    expect(within(card).getByRole('heading', { name: '1 falta anterior' })).toBeTruthy();
    expect(within(card).getByText(/^1 denuncia, la primera/)).toBeTruthy();
    expect(within(card).getByText('tom.tabby').closest('p')!.textContent).toMatch(
      /^tom\.tabby · Muestra la casa de alguien o información privada · /,
    );
    fireEvent.click(within(card).getByRole('checkbox', { name: 'Suspender al autor' }));
    const howLong = within(card).getByRole('combobox', { name: 'Duración' });
    expect(
      within(howLong)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Durante 1 día', 'Durante 7 días', 'Durante 30 días', 'Para siempre']);
    fireEvent.click(within(card).getByRole('button', { name: 'Aplicar' }));
    expect(within(card).getByRole('alert').textContent).toBe(
      'Explica el motivo: la persona afectada leerá esta explicación.',
    );
  });
});
