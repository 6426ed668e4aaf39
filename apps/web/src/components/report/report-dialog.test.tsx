import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import {
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  MODERATION_MESSAGES,
  type CommentsResponse,
  type CreateReportBody,
  type Post,
} from '@cats/contracts';
import { loadLanguage } from '../../i18n/i18n-store.ts';
import { api } from '../../lib/api-client.ts';
import { authStore } from '../../lib/auth-store.ts';
import { clearToasts, ToastRegion } from '../toast.tsx';
import { CommentsPanel } from '../post/comments-panel.tsx';
import { PostMenu } from '../post/post-menu.tsx';
import { testPost } from '../post/test-post.ts';
import { ReportDialog, type ReportTarget } from './report-dialog.tsx';

type Answer = (body: CreateReportBody) => Response;

/** A server in miniature: POST /api/reports answers `answer`; the feed-test list answers `posts`. */
function server(answer: Answer, posts: Post[] = []) {
  authStore.set({ accessToken: 't', userId: 'me' });
  const sent: CreateReportBody[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    if (url === '/api/feed-test') return Response.json({ posts });
    if (url === '/api/reports' && init.method === 'POST') {
      const body = JSON.parse(String(init.body)) as CreateReportBody;
      sent.push(body);
      return answer(body);
    }
    return Response.json({ message: `unexpected ${url}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return { sent, client };
}

const receipt = (over: Partial<{ updated: boolean; blocked: boolean; message: string }> = {}) =>
  Response.json(
    { reportId: 'r1', updated: false, blocked: false, message: MODERATION_MESSAGES.reported, ...over },
    { status: over.updated ? 200 : 201 },
  );

function renderDialog(
  target: ReportTarget,
  owner: { _id: string; username: string } | null,
  answer: Answer = () => receipt(),
) {
  const { sent, client } = server(answer);
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <ReportDialog target={target} owner={owner} onClose={onClose} />
      <ToastRegion />
    </QueryClientProvider>,
  );
  return { sent, onClose };
}

const dialog = () => screen.getByRole('dialog');
const send = () => fireEvent.click(within(dialog()).getByRole('button', { name: 'Send report' }));

afterEach(() => {
  cleanup();
  clearToasts();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('ReportDialog', () => {
  it('names what is reported in a whole sentence for each kind of target', () => {
    const titles: [ReportTarget, string][] = [
      [{ type: 'post', id: 'p1' }, 'Report this picture'],
      [{ type: 'comment', id: 'c1', postId: 'p1' }, 'Report this comment'],
      [{ type: 'user', id: 'u1' }, 'Report whiskers'],
      [{ type: 'cat', id: 'k1' }, 'Report this cat'],
    ];
    for (const [target, title] of titles) {
      renderDialog(target, { _id: 'u1', username: 'whiskers' });
      expect(screen.getByRole('dialog', { name: title })).toBeTruthy();
      cleanup();
    }
  });

  it('offers the six reasons as a labelled radio group, a counted note and the block', () => {
    renderDialog({ type: 'post', id: 'p1' }, { _id: 'u1', username: 'whiskers' });
    const group = screen.getByRole('radiogroup', { name: 'Why are you reporting it?' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual([
      'Spam',
      'Harassment or hate',
      'Not a cat / off-topic',
      "Shows someone's home or private information",
      'Animal cruelty',
      'Other',
    ]);
    const note = screen.getByRole('textbox', { name: 'Anything the moderators should know (optional)' });
    expect(note.getAttribute('maxlength')).toBe('1000');
    fireEvent.change(note, { target: { value: 'Twelve chars' } });
    expect(screen.getByText('12 / 1000')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Also block whiskers' })).toBeTruthy();
    expect(screen.getByText('You will stop seeing this picture.')).toBeTruthy();
  });

  it('offers no block when nobody stands behind the target (a cat whose creator left)', () => {
    renderDialog({ type: 'cat', id: 'k1' }, null);
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('asks for a reason before sending anything', () => {
    const { sent } = renderDialog({ type: 'post', id: 'p1' }, { _id: 'u1', username: 'whiskers' });
    send();
    expect(screen.getByRole('alert').textContent).toBe(MODERATION_MESSAGES.reasonInvalid);
    expect(sent).toEqual([]);
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Spam' }));
  });

  it('sends the reason, the note and the block, then closes and shows the server’s message', async () => {
    const { sent, onClose } = renderDialog(
      { type: 'user', id: 'u1' },
      { _id: 'u1', username: 'whiskers' },
      () => receipt({ blocked: true }),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Harassment or hate' }));
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Rude to everyone' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Also block whiskers' }));
    send();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([
      {
        targetType: 'user',
        targetId: 'u1',
        reason: 'harassment',
        note: 'Rude to everyone',
        blockAuthor: true,
      },
    ]);
    expect(screen.getByRole('status').textContent).toContain(MODERATION_MESSAGES.reported);
  });

  it('shows a refusal in the dialog and keeps what was written', async () => {
    const { onClose } = renderDialog({ type: 'post', id: 'p1' }, { _id: 'u1', username: 'whiskers' }, () =>
      Response.json({ message: MODERATION_MESSAGES.tooManyReports }, { status: 429 }),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Spam' }));
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Again and again' } });
    send();
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(MODERATION_MESSAGES.tooManyReports),
    );
    expect(onClose).not.toHaveBeenCalled();
    expect((screen.getByRole('radio', { name: 'Spam' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('textbox') as HTMLTextAreaElement).value).toBe('Again and again');
  });

  it('tells the demo account the feature is disabled, as other actions do', async () => {
    renderDialog({ type: 'post', id: 'p1' }, { _id: 'u1', username: 'whiskers' }, () =>
      Response.json({ message: DEMO_DISABLED_MESSAGE }, { status: 403 }),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Spam' }));
    authStore.set({ userId: DEMO_USER_ID });
    send();
    await waitFor(() =>
      expect(screen.getByRole('alertdialog', { name: DEMO_DISABLED_MESSAGE })).toBeTruthy(),
    );
  });

  it('takes a 400 as the refusal of the reason, and clears it when a reason is chosen', async () => {
    // The server words its refusal in the reader's language: the dialog knows it by its status.
    renderDialog({ type: 'post', id: 'p1' }, { _id: 'u1', username: 'whiskers' }, () =>
      Response.json({ message: 'Elige un motivo para tu denuncia' }, { status: 400 }),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Spam' }));
    send();
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Elige un motivo para tu denuncia'),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Other' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps any other refusal when a reason is chosen', async () => {
    renderDialog({ type: 'post', id: 'p1' }, { _id: 'u1', username: 'whiskers' }, () =>
      Response.json({ message: MODERATION_MESSAGES.tooManyReports }, { status: 429 }),
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Spam' }));
    send();
    await screen.findByRole('alert');
    fireEvent.click(screen.getByRole('radio', { name: 'Other' }));
    expect(screen.getByRole('alert').textContent).toBe(MODERATION_MESSAGES.tooManyReports);
  });

  it('closes on Escape and on Cancel without sending', () => {
    const { sent, onClose } = renderDialog({ type: 'post', id: 'p1' }, { _id: 'u1', username: 'whiskers' });
    fireEvent.keyDown(dialog(), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(2);
    expect(sent).toEqual([]);
  });
});

describe('ReportDialog in Spanish', () => {
  afterEach(() => act(() => loadLanguage('en')));

  it('asks, offers the reasons and refuses a missing reason in Spanish', async () => {
    await act(() => loadLanguage('es'));
    renderDialog({ type: 'user', id: 'u1' }, { _id: 'u1', username: 'whiskers' });
    expect(screen.getByRole('dialog', { name: 'Denunciar a whiskers' })).toBeTruthy();
    const group = screen.getByRole('radiogroup', { name: '¿Por qué lo denuncias?' });
    expect(within(group).getByRole('radio', { name: 'Acoso u odio' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Bloquear también a whiskers' })).toBeTruthy();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Enviar denuncia' }));
    expect(screen.getByRole('alert').textContent).toBe('Elige un motivo para tu denuncia');
    fireEvent.click(within(group).getByRole('radio', { name: 'Spam' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

/** A feed in miniature: each post with its menu, rendered from the cache. */
function Feed() {
  const { data } = useQuery({
    queryKey: ['feed-test'],
    queryFn: () => api<{ posts: Post[] }>('/api/feed-test'),
    staleTime: Infinity,
  });
  return (
    <ul>
      {data?.posts.map((p) => (
        <li key={p._id} data-testid={p._id}>
          <PostMenu post={p} />
        </li>
      ))}
    </ul>
  );
}

describe("Report in a post's menu", () => {
  it('takes the reported picture out of the list at once', async () => {
    const posts = [testPost('p1'), testPost('p2')];
    const { sent, client } = server(() => receipt(), posts);
    client.setQueryData(['feed-test'], { posts });
    render(
      <MemoryRouter>
        <QueryClientProvider client={client}>
          <Feed />
          <ToastRegion />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    fireEvent.click(within(screen.getByTestId('p1')).getByRole('button', { name: 'Post options' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Report' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Spam' }));
    send();
    await waitFor(() => expect(screen.queryByTestId('p1')).toBeNull());
    expect(screen.getByTestId('p2')).toBeTruthy();
    expect(sent).toEqual([
      { targetType: 'post', targetId: 'p1', reason: 'spam', note: '', blockAuthor: false },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Report on a comment', () => {
  it("is offered on others' comments only, and takes the reported one out of the panel and the count", async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    const byOther = {
      _id: 'c1',
      comment: 'Rude words',
      user: { _id: 'troll', username: 'troll' },
      createdAt: '2026-11-24T12:00:00Z',
      canDelete: false,
    };
    const mine = {
      ...byOther,
      _id: 'c2',
      comment: 'My reply',
      user: { _id: 'me', username: 'me' },
      canDelete: true,
    };
    const page: CommentsResponse = {
      postId: 'p1',
      comments: [byOther, mine],
      commentCount: 2,
      info: { before: null },
    };
    const sent: CreateReportBody[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (url.startsWith('/api/posts/getComments/')) return Response.json(page);
        if (url === '/api/reports' && init.method === 'POST') {
          sent.push(JSON.parse(String(init.body)) as CreateReportBody);
          return receipt();
        }
        return Response.json({ message: `unexpected ${url}` }, { status: 500 });
      }),
    );
    const client = new QueryClient({
      defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
    });
    const posts = [testPost('p1', { commentCount: 2 })];
    client.setQueryData(['feed-test'], { posts });
    render(
      <MemoryRouter>
        <QueryClientProvider client={client}>
          <CommentsPanel postId="p1" />
          <ToastRegion />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    await screen.findByText('Rude words');
    expect(screen.queryByRole('button', { name: 'Report comment by me' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Report comment by troll' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Harassment or hate' }));
    send();
    await waitFor(() => expect(screen.queryByText('Rude words')).toBeNull());
    expect(screen.getByText('My reply')).toBeTruthy();
    expect(sent).toEqual([
      { targetType: 'comment', targetId: 'c1', reason: 'harassment', note: '', blockAuthor: false },
    ]);
    expect(client.getQueryData<{ posts: Post[] }>(['feed-test'])?.posts[0]?.commentCount).toBe(1);
  });
});
