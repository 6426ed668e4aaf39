import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { Post } from '@cats/contracts';
import { loadLanguage, startLanguage } from '../../i18n/i18n-store.ts';
import { ApiError } from '../../lib/api-client.ts';
import { closeQueueDb } from '../../lib/upload-queue/queue-db.ts';
import { createUploadQueue } from '../../lib/upload-queue/upload-queue.ts';
import type { NewPost } from '../../lib/upload-queue/new-post.ts';
import { UploadsWaiting } from './uploads-waiting.tsx';

const USER = '33333333-3333-4333-8333-333333333333';
const sighting = (comment: string): NewPost => ({
  image: new Blob(['bytes'], { type: 'image/jpeg' }),
  catName: '',
  comment,
  altText: '',
  coordinates: null,
  showLocation: false,
  exifData: {},
  groupIds: [],
  catId: null,
});

let online = false;
let release: (() => void) | null = null;

function setOnline(value: boolean) {
  online = value;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => value });
}

const queue = createUploadQueue({
  currentUserId: () => USER,
  isOnline: () => online,
  retryDelayMs: () => 60_000,
  send: async (p, key, onProgress) => {
    if (p.comment === 'refused') throw new ApiError(404, 'Cat not found');
    onProgress(0.4);
    await new Promise<void>((resolve) => (release = resolve));
    return { post: { _id: key } as Post };
  },
});

afterEach(async () => {
  cleanup();
  await act(() => startLanguage('en'));
  await closeQueueDb();
  indexedDB.deleteDatabase('cats-upload-queue');
});

describe('UploadsWaiting (issue 28)', () => {
  it('shows queued pictures with thumbnails, then sending with progress, then Sent', async () => {
    setOnline(false);
    render(<UploadsWaiting queue={queue} />);
    await act(() => queue.enqueue(sighting('one'), 'k1'));
    expect(screen.getByRole('heading', { name: 'Uploads waiting' })).toBeTruthy();
    expect(screen.getByText('Waiting for a connection.')).toBeTruthy();
    expect(document.querySelectorAll('.uploads-waiting__thumb')).toHaveLength(1);

    act(() => setOnline(true));
    const flushing = queue.flush();
    expect(await screen.findByText('Sending: 40% done.')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toBeTruthy();
    await act(async () => {
      release?.();
      await flushing;
    });
    expect(screen.getByText('Sent')).toBeTruthy();
    expect(screen.getByText('All your pictures are sent.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Hide' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Uploads waiting' })).toBeNull());
  });

  it("shows the server's refusal and lets the person discard the picture", async () => {
    setOnline(true);
    render(<UploadsWaiting queue={queue} />);
    online = false;
    await act(() => queue.enqueue(sighting('refused'), 'k2'));
    online = true;
    await act(() => queue.flush());
    expect(screen.getByText('Not sent. Cat not found')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByText('Not sent. Cat not found')).toBeNull());
  });

  it('lets the person discard a picture that waits for a connection', async () => {
    setOnline(false);
    render(<UploadsWaiting queue={queue} />);
    await act(() => queue.enqueue(sighting('changed my mind'), 'k3'));
    expect(screen.getByText('Waiting for a connection.')).toBeTruthy();
    // Offline there is nothing to try now.
    expect(screen.queryByRole('button', { name: 'Try now' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Uploads waiting' })).toBeNull());
  });

  it('says when the server could not take a picture, and offers to try again now', async () => {
    setOnline(true);
    let failures = 1;
    const busy = createUploadQueue({
      currentUserId: () => USER,
      isOnline: () => online,
      retryDelayMs: () => 60_000,
      send: async (_p, key) => {
        if (failures-- > 0) throw new ApiError(503, 'Service unavailable');
        return { post: { _id: key } as Post };
      },
    });
    render(<UploadsWaiting queue={busy} />);
    await act(() => busy.enqueue(sighting('busy'), 'k4'));
    expect(
      await screen.findByText('The server could not take it just now. It will be sent again by itself.'),
    ).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Try now' }));
    });
    expect(await screen.findByText('Sent')).toBeTruthy();
  });

  it('speaks Spanish, with the percentage written the Spanish way', async () => {
    await act(() => loadLanguage('es'));
    setOnline(false);
    render(<UploadsWaiting queue={queue} />);
    await act(() => queue.enqueue(sighting('uno'), 'k5'));
    expect(screen.getByRole('heading', { name: 'Subidas pendientes' })).toBeTruthy();
    expect(screen.getByText('Esperando conexión.')).toBeTruthy();
    act(() => setOnline(true));
    const flushing = queue.flush();
    // '40\u00a0%': the query reads the non-breaking space as a space.
    expect(await screen.findByText('Enviando: 40 % completado.')).toBeTruthy();
    await act(async () => {
      release?.();
      await flushing;
    });
    expect(screen.getByText('Enviada')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ocultar' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Subidas pendientes' })).toBeNull());
  });
});
