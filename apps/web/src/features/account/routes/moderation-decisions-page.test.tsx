import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { APPEAL_MESSAGES, DEMO_USER_ID, type Appeal, type OwnReport, type Statement } from '@cats/contracts';
import { authStore } from '../../../lib/auth-store.ts';
import ModerationDecisionsPage from './moderation-decisions-page.tsx';

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

const report = (over: Partial<OwnReport>): OwnReport => ({
  _id: 'r1',
  targetType: 'post',
  reason: 'spam',
  note: '',
  createdAt: '2026-11-18T09:00:00.000Z',
  updatedAt: '2026-11-18T09:00:00.000Z',
  status: 'open',
  outcomes: [],
  ...over,
});

function api({
  statements = [removal] as Statement[],
  reports = [] as OwnReport[],
  appeal = (): Response =>
    Response.json(
      {
        appeal: {
          _id: 'ap1',
          body: 'It is the vet, not my home.',
          createdAt: '2026-11-21T08:00:00.000Z',
          decidedAt: null,
          outcome: null,
        } satisfies Appeal,
        message: APPEAL_MESSAGES.sent,
      },
      { status: 201 },
    ),
} = {}) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/moderation/statements') return Response.json({ statements });
    if (url === '/api/reports/mine') return Response.json({ reports });
    if (url === '/api/appeals' && init?.method === 'POST') {
      const res = appeal();
      // The server now holds the appeal: the statements' refetch shows it.
      if (res.ok) {
        const { appeal: sent } = (await res.clone().json()) as { appeal: Appeal };
        statements = statements.map((s) => ({ ...s, appeal: sent, canAppeal: false }));
      }
      return res;
    }
    throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
  return { posts };
}

function setup(path = '/settings/moderation') {
  authStore.set({ accessToken: 't', userId: 'me' });
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <ModerationDecisionsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
});

const card = async (name: string) => screen.findByRole('article', { name });

describe('ModerationDecisionsPage', () => {
  it('says so when nobody acted on the content and nothing was reported', async () => {
    api({ statements: [] });
    setup();
    expect(await screen.findByText('No moderator has acted on your content.')).toBeTruthy();
    expect(await screen.findByText('You have not reported anything.')).toBeTruthy();
  });

  it('states what happened, to what, under which rule, why and when, and until when to appeal', async () => {
    api();
    setup();
    const statement = await card('A moderator removed your picture.');
    expect(statement.id).toBe(`decision-${removal._id}`);
    expect(within(statement).getByText("Rule: Shows someone's home or private information")).toBeTruthy();
    expect(within(statement).getByText('Why: The house number is readable.')).toBeTruthy();
    expect(within(statement).getByText('Luna at the front door.')).toBeTruthy();
    expect(
      within(statement).getByRole('img', { name: 'Your picture, as it was reported' }).getAttribute('src'),
    ).toBe('/media/posts/abc/300.webp');
    const date = within(statement).getByText('20 November 2026');
    expect(date.tagName).toBe('TIME');
    expect(date.getAttribute('datetime')).toBe(removal.createdAt);
    expect(within(statement).getByText(/You can appeal until/).textContent).toBe(
      'You can appeal until 10 December 2026.',
    );
    expect(within(statement).queryByText('Undone')).toBeNull();
  });

  it('words every kind of decision and every state of its appeal as whole sentences', async () => {
    const at = (over: Partial<Statement>, id: string): Statement => ({ ...removal, _id: id, ...over });
    api({
      statements: [
        at({ action: 'strip_location', canAppeal: false }, 'a1'),
        at(
          {
            action: 'warn',
            canAppeal: false,
            appeal: {
              _id: 'x',
              body: 'b',
              createdAt: '2026-11-21T08:00:00.000Z',
              decidedAt: null,
              outcome: null,
            },
          },
          'a2',
        ),
        at(
          {
            action: 'suspend',
            targetType: 'user',
            suspendedUntil: null,
            canAppeal: false,
            reverted: true,
            appeal: {
              _id: 'y',
              body: 'b',
              createdAt: '2026-11-21T08:00:00.000Z',
              decidedAt: '2026-11-22T08:00:00.000Z',
              outcome: 'overturned',
            },
          },
          'a3',
        ),
        at(
          {
            action: 'suspend',
            targetType: 'user',
            suspendedUntil: '2026-11-27T10:00:00.000Z',
            canAppeal: false,
            appeal: {
              _id: 'z',
              body: 'b',
              createdAt: '2026-11-21T08:00:00.000Z',
              decidedAt: '2026-11-22T08:00:00.000Z',
              outcome: 'upheld',
            },
          },
          'a4',
        ),
      ],
    });
    setup();
    const hidden = await card('A moderator hid the location of your picture.');
    expect(within(hidden).getByText('The time to appeal this decision has passed.')).toBeTruthy();
    expect(within(hidden).queryByRole('button', { name: 'Appeal' })).toBeNull();
    const warned = await card('You received a warning.');
    expect(within(warned).getByText(/You appealed on/).textContent).toBe(
      'You appealed on 21 November 2026. Waiting for a moderator.',
    );
    const forGood = await card('Your account was suspended.');
    expect(within(forGood).getByText('Undone')).toBeTruthy();
    expect(within(forGood).getByText('Your appeal was accepted: the decision is undone.')).toBeTruthy();
    const until = screen.getAllByRole('article').find((a) => a.id === 'decision-a4')!;
    expect(within(until).getByRole('heading').textContent).toMatch(
      /^Your account was suspended until 27 November 2026 at \d\d:\d\d\.$/,
    );
    expect(within(until).getByText('Your appeal was declined: the decision stands.')).toBeTruthy();
  });

  it('highlights the decision the link named', async () => {
    api({ statements: [removal, { ...removal, _id: 'other', action: 'warn' }] });
    setup(`/settings/moderation#decision-${removal._id}`);
    const named = await card('A moderator removed your picture.');
    expect(named.className).toContain('statement--highlighted');
    expect((await card('You received a warning.')).className).not.toContain('statement--highlighted');
    expect(document.activeElement).toBe(named);
  });

  it("sends an appeal, shows the server's sentence and then that it waits for a moderator", async () => {
    const { posts } = api();
    setup();
    const statement = await card('A moderator removed your picture.');
    fireEvent.click(within(statement).getByRole('button', { name: 'Appeal' }));
    const field = within(statement).getByLabelText('Why should this decision change?');
    expect(field.getAttribute('maxlength')).toBe('2000');
    // Cancel closes the form without sending.
    fireEvent.click(within(statement).getByRole('button', { name: 'Cancel' }));
    expect(within(statement).queryByLabelText('Why should this decision change?')).toBeNull();
    fireEvent.click(within(statement).getByRole('button', { name: 'Appeal' }));
    fireEvent.click(within(statement).getByRole('button', { name: 'Send appeal' }));
    expect(within(statement).getByRole('alert').textContent).toBe('Write why the decision should change.');
    expect(posts()).toEqual([]);
    fireEvent.change(within(statement).getByLabelText('Why should this decision change?'), {
      target: { value: 'It is the vet, not my home.' },
    });
    expect(within(statement).getByText('27 / 2000')).toBeTruthy();
    fireEvent.click(within(statement).getByRole('button', { name: 'Send appeal' }));
    expect(await within(statement).findByText(APPEAL_MESSAGES.sent)).toBeTruthy();
    expect(within(statement).getByText(/You appealed on/).textContent).toBe(
      'You appealed on 21 November 2026. Waiting for a moderator.',
    );
    expect(within(statement).queryByRole('button', { name: 'Appeal' })).toBeNull();
    const [[url, init]] = posts() as [[string, RequestInit]];
    expect(url).toBe('/api/appeals');
    expect(JSON.parse(String(init.body))).toEqual({
      actionId: removal._id,
      body: 'It is the vet, not my home.',
    });
  });

  it("shows the server's refusal in the form, and the demo refusal as the demo dialog", async () => {
    let answer = () => Response.json({ message: APPEAL_MESSAGES.tooLate }, { status: 409 });
    api({ appeal: () => answer() });
    setup();
    const statement = await card('A moderator removed your picture.');
    fireEvent.click(within(statement).getByRole('button', { name: 'Appeal' }));
    fireEvent.change(within(statement).getByLabelText('Why should this decision change?'), {
      target: { value: 'Please.' },
    });
    fireEvent.click(within(statement).getByRole('button', { name: 'Send appeal' }));
    expect((await within(statement).findByRole('alert')).textContent).toBe(APPEAL_MESSAGES.tooLate);
    answer = () => Response.json({ message: 'Feature disabled for demo user' }, { status: 403 });
    authStore.set({ userId: DEMO_USER_ID });
    fireEvent.click(within(statement).getByRole('button', { name: 'Send appeal' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Feature disabled for demo user' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('lists own reports with what came of each', async () => {
    api({
      statements: [],
      reports: [
        report({ _id: 'r1' }),
        report({
          _id: 'r2',
          status: 'resolved',
          outcomes: ['dismiss'],
          reason: 'harassment',
          targetType: 'comment',
        }),
        report({ _id: 'r3', status: 'resolved', outcomes: ['remove', 'suspend'], reason: 'off_topic' }),
        report({
          _id: 'r4',
          status: 'resolved',
          outcomes: ['strip_location', 'warn'],
          reason: 'private_information',
        }),
      ],
    });
    setup('/settings/moderation#reports');
    const list = await screen.findByRole('region', { name: 'Your reports' });
    const items = (await within(list).findAllByRole('listitem')).map((li) => li.textContent);
    expect(items).toEqual([
      'A picture · Spam · 18 November 2026Waiting for review',
      'A comment · Harassment or hate · 18 November 2026We reviewed it and found no rule broken.',
      'A picture · Not a cat / off-topic · 18 November 2026We removed the post you reported.We suspended the account behind it.',
      "A picture · Shows someone's home or private information · 18 November 2026We hid its location.We warned the person behind it.",
    ]);
    expect(list.id).toBe('reports');
    expect(document.activeElement).toBe(list);
  });
});
