import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { clearToasts, showToast, TOAST_DURATION_MS, ToastRegion } from './toast.tsx';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  act(() => clearToasts());
  vi.useRealTimers();
});

describe('toasts', () => {
  it('announces the message in a polite status region without taking focus', () => {
    render(
      <>
        <button type="button">Before</button>
        <ToastRegion />
      </>,
    );
    const before = screen.getByRole('button', { name: 'Before' });
    before.focus();
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    act(() => void showToast({ message: 'Post hidden.', action: { label: 'Undo', onAction: () => {} } }));
    expect(region.textContent).toContain('Post hidden.');
    expect(document.activeElement).toBe(before);
    // The action is an ordinary button in the tab order.
    const undo = screen.getByRole('button', { name: 'Undo' });
    expect(undo.tabIndex).toBe(0);
  });

  it('goes away after 5 seconds', () => {
    render(<ToastRegion />);
    act(() => void showToast({ message: 'User blocked.' }));
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 100));
    expect(screen.queryByText('User blocked.')).not.toBeNull();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('User blocked.')).toBeNull();
  });

  it('runs the action once and closes when it is chosen', () => {
    const onAction = vi.fn();
    render(<ToastRegion />);
    act(() => void showToast({ message: 'Post hidden.', action: { label: 'Undo', onAction } }));
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Post hidden.')).toBeNull();
  });

  it('waits while focus is inside, and counts down again when it leaves', () => {
    render(
      <>
        <button type="button">Elsewhere</button>
        <ToastRegion />
      </>,
    );
    act(() => void showToast({ message: 'Post hidden.', action: { label: 'Undo', onAction: () => {} } }));
    const undo = screen.getByRole('button', { name: 'Undo' });
    act(() => undo.focus());
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 3));
    expect(screen.queryByText('Post hidden.')).not.toBeNull();
    act(() => screen.getByRole('button', { name: 'Elsewhere' }).focus());
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(screen.queryByText('Post hidden.')).toBeNull();
  });

  it('can be dismissed, and keeps at most three', () => {
    render(<ToastRegion />);
    act(() => {
      for (const n of [1, 2, 3, 4]) showToast({ message: `Toast ${n}` });
    });
    expect(screen.queryByText('Toast 1')).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Dismiss' })).toHaveLength(3);
    fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss' })[0]!);
    expect(screen.queryByText('Toast 2')).toBeNull();
    expect(screen.queryByText('Toast 4')).not.toBeNull();
  });
});
