import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OfflineBar } from './offline-bar.tsx';

function goOffline(offline: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(!offline);
  window.dispatchEvent(new Event(offline ? 'offline' : 'online'));
}

describe('OfflineBar', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says the person is offline while the browser has no network, and nothing otherwise', () => {
    const { container } = render(<OfflineBar />);
    const status = container.querySelector('[role="status"]');
    expect(status).not.toBeNull();
    expect(status?.textContent).toBe('');
    act(() => goOffline(true));
    expect(status?.textContent).toBe('You are offline. You are seeing the pages saved on this device.');
    act(() => goOffline(false));
    expect(status?.textContent).toBe('');
  });
});
