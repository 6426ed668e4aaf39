import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DEMO_USER_ID } from '@cats/contracts';
import { loadLanguage } from '../i18n/i18n-store.ts';
import { ApiError } from '../lib/api-client.ts';
import { authStore } from '../lib/auth-store.ts';
import { DemoDisabledModal, isDemoDisabledError } from './message-modal.tsx';
import { Modal } from './modal.tsx';

afterEach(cleanup);

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      <button>Elsewhere</button>
      {open && (
        <Modal
          title="Delete your account?"
          onClose={() => setOpen(false)}
          actions={
            <>
              <button onClick={() => setOpen(false)}>Cancel</button>
              <button>Delete</button>
            </>
          }
        >
          <p>Deleting your account can NOT be reversed.</p>
        </Modal>
      )}
    </>
  );
}

describe('Modal', () => {
  it('is named by its title, focuses its first control, traps Tab and returns focus on close', () => {
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);

    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    const del = screen.getByRole('button', { name: 'Delete' });
    expect(document.activeElement).toBe(cancel);

    // Tab from the last control wraps to the first, Shift+Tab from the first to the last.
    del.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(del);

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('closes on Escape unless it is not dismissible', () => {
    const onClose = vi.fn();
    const { rerender } = render(
      <Modal title="Busy" onClose={onClose} dismissible={false}>
        <button>Inside</button>
      </Modal>,
    );
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
    rerender(
      <Modal title="Busy" onClose={onClose}>
        <button>Inside</button>
      </Modal>,
    );
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('DemoDisabledModal', () => {
  it("says 'Feature disabled for demo user' with an OK button that closes it", () => {
    const onClose = vi.fn();
    render(<DemoDisabledModal onClose={onClose} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Feature disabled for demo user' });
    expect(dialog.textContent).toContain('Feature disabled for demo user');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('recognises the demo refusal by its 403 to the signed-in demo account in any language, or by its English sentence', () => {
    authStore.set({ accessToken: 't', userId: DEMO_USER_ID });
    const spanish = 'Esta función no está disponible para la cuenta de demostración';
    expect(isDemoDisabledError(new ApiError(403, 'Feature disabled for demo user'))).toBe(true);
    expect(isDemoDisabledError(new ApiError(403, spanish))).toBe(true);
    expect(isDemoDisabledError(new ApiError(400, 'Feature disabled for demo user'))).toBe(false);
    expect(isDemoDisabledError(new Error('Feature disabled for demo user'))).toBe(false);
    const expired = new Headers({ 'www-authenticate': 'Bearer error="invalid_token"' });
    expect(isDemoDisabledError(new ApiError(403, 'Forbidden', expired))).toBe(false);
    // Anyone else's 403 is another refusal, unless it is the spec's English sentence itself.
    authStore.set({ accessToken: 't', userId: 'me' });
    expect(isDemoDisabledError(new ApiError(403, spanish))).toBe(false);
    expect(isDemoDisabledError(new ApiError(403, 'Forbidden'))).toBe(false);
    expect(isDemoDisabledError(new ApiError(403, 'Feature disabled for demo user'))).toBe(true);
    authStore.clear();
    expect(isDemoDisabledError(new ApiError(403, spanish))).toBe(false);
  });

  it('speaks Spanish', async () => {
    await act(() => loadLanguage('es'));
    try {
      render(<DemoDisabledModal onClose={() => {}} />);
      expect(
        screen.getByRole('alertdialog', {
          name: 'Esta función no está disponible para la cuenta de demostración',
        }),
      ).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Aceptar' })).toBeTruthy();
    } finally {
      await act(() => loadLanguage('en'));
    }
  });
});
