import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import { authStore } from '../../../lib/auth-store.ts';
import { DeleteAccount } from './delete-account.tsx';

vi.mock('../../../lib/session.ts', () => ({ endSession: vi.fn(async () => {}) }));

function setup() {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/profile/settings']}>
        <Routes>
          <Route
            path="/profile/settings"
            element={<DeleteAccount userId="me" disabled={false} onDemoRefused={vi.fn()} />}
          />
          <Route path="/goodbye" element={<p>goodbye page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function openDialog() {
  fireEvent.click(screen.getByRole('button', { name: 'Delete account' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
  // The seed's texts stay as they are; the password field comes on top (issue 46).
  within(dialog).getByText('This will delete all existing pictures and groups in your account.');
  within(dialog).getByText('Deleting your account can NOT be reversed.');
  return dialog;
}

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
  await act(() => loadLanguage('en'));
});

describe('DeleteAccount', () => {
  it('asks for the password, sends it with the deletion and goes to the goodbye page', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    setup();
    const dialog = await openDialog();
    const remove = within(dialog).getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    const password = within(dialog).getByLabelText('Password');
    expect(document.activeElement).toBe(password);
    fireEvent.change(password, { target: { value: 'Whiskers123' } });
    expect(remove.disabled).toBe(false);
    fireEvent.click(remove);
    await screen.findByText('goodbye page');
    expect(fetchMock).toHaveBeenCalledOnce();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/profile/deleteUser/me');
    expect(init.method).toBe('DELETE');
    expect(JSON.parse(init.body as string)).toEqual({ password: 'Whiskers123' });
  });

  it('says a wrong password in the dialog, which stays open for another try', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ message: 'Current password is incorrect' }, { status: 400 })),
    );
    setup();
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Wrong1234' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await within(dialog).findByText('Current password is incorrect');
    expect(screen.getByRole('alertdialog', { name: 'Delete your account?' })).toBe(dialog);
    expect(screen.queryByRole('alertdialog', { name: 'Account deletion failed' })).toBeNull();
    expect(screen.queryByText('goodbye page')).toBeNull();
  });

  it('labels the field in Spanish (issue 28)', async () => {
    await act(() => loadLanguage('es'));
    authStore.set({ accessToken: 't', userId: 'me' });
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar cuenta' }));
    const dialog = await screen.findByRole('alertdialog', { name: '¿Eliminar tu cuenta?' });
    within(dialog).getByLabelText('Contraseña');
  });
});
