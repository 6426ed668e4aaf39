import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { APPEAL_MESSAGES, type Appeal, type Statement } from '@cats/contracts';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import LoginPage from './login-page.tsx';

const SUSPENDED = 'Your account is suspended until 2 December 2026 at 14:00 UTC.';
const suspension: Statement = {
  _id: '0b9a1c55-2f0e-4c43-9a57-1c1a5d3f7e02',
  action: 'suspend',
  targetType: 'user',
  targetId: 'me',
  excerpt: null,
  thumbnailUrl: null,
  rule: 'harassment',
  explanation: 'Threats in comments.',
  createdAt: '2026-11-25T14:00:00.000Z',
  suspendedUntil: '2026-12-02T14:00:00.000Z',
  reverted: false,
  appeal: null,
  appealDeadline: '2026-12-15T14:00:00.000Z',
  canAppeal: true,
};

function api(suspended = SUSPENDED) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/login') return Response.json({ message: suspended }, { status: 403 });
    if (url === '/api/login/suspension') return Response.json({ statements: [suspension] });
    if (url === '/api/login/suspension/appeal') {
      const sent: Appeal = {
        _id: 'ap1',
        body: 'I was quoting.',
        createdAt: '2026-11-26T08:00:00.000Z',
        decidedAt: null,
        outcome: null,
      };
      return Response.json({ appeal: sent, message: APPEAL_MESSAGES.sent }, { status: 201 });
    }
    throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  const bodyOf = (path: string) =>
    fetchMock.mock.calls
      .filter(([url]) => url === path)
      .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
  return { bodyOf };
}

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await act(() => loadLanguage('en'));
});

describe('LoginPage for a suspended account', () => {
  it('says until when, shows why, and sends an appeal with the credentials typed', async () => {
    const { bodyOf } = api();
    render(
      <MemoryRouter initialEntries={['/login']}>
        <LoginPage />
      </MemoryRouter>,
    );
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'me@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));

    expect(await screen.findByText(SUSPENDED)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Read why and appeal' }));
    expect(
      await screen.findByText('Your account was suspended until 2 December 2026 at 14:00.'),
    ).toBeTruthy();
    expect(screen.getByText('Rule: Harassment or hate')).toBeTruthy();
    expect(screen.getByText('Why: Threats in comments.')).toBeTruthy();
    expect(bodyOf('/api/login/suspension')).toEqual([{ email: 'me@example.com', password: 'Secret123' }]);

    // An empty appeal is not sent.
    fireEvent.click(screen.getByRole('button', { name: 'Send appeal' }));
    expect(await screen.findByText('Write why the decision should change.')).toBeTruthy();
    expect(bodyOf('/api/login/suspension/appeal')).toEqual([]);

    fireEvent.change(screen.getByLabelText('Your appeal'), { target: { value: 'I was quoting.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send appeal' }));
    expect(await screen.findByText(APPEAL_MESSAGES.sent)).toBeTruthy();
    expect(screen.getByText('You appealed. Waiting for a moderator.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send appeal' })).toBeNull();
    expect(bodyOf('/api/login/suspension/appeal')).toEqual([
      { email: 'me@example.com', password: 'Secret123', actionId: suspension._id, body: 'I was quoting.' },
    ]);
  });

  it('knows the suspension by its status in Spanish, whose words it does not compare', async () => {
    await act(() => loadLanguage('es'));
    const suspended = 'Tu cuenta está suspendida hasta el 2 de diciembre de 2026 a las 14:00 (UTC).';
    api(suspended);
    render(
      <MemoryRouter initialEntries={['/login']}>
        <LoginPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Iniciar sesión' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Correo electrónico'), { target: { value: 'me@example.com' } });
    fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: 'Secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));

    expect(await screen.findByText(suspended)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Leer el motivo y apelar' }));
    expect(await screen.findByRole('heading', { name: 'Por qué está suspendida tu cuenta' })).toBeTruthy();
    expect(screen.getByText('Motivo: Threats in comments.')).toBeTruthy();
  });
});
