import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { GROUP_MESSAGES } from '@cats/contracts';
import { CreateGroupForm } from './create-group-form.tsx';

function setup() {
  const onResult = vi.fn();
  const fetchMock = vi.fn(() =>
    Promise.resolve(
      new Response(
        JSON.stringify({
          message: 'created',
          group: { _id: 'g1', groupName: 'Our street', code: 'Ourstreet-7KQ4-M2XD' },
          ownedGroups: [],
          memberGroups: [],
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      ),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      <CreateGroupForm onResult={onResult} />
    </QueryClientProvider>,
  );
  const submit = (name: string) => {
    fireEvent.change(screen.getByLabelText(/Group name/), { target: { value: name } });
    fireEvent.submit(screen.getByRole('button', { name: 'Create group' }).closest('form')!);
  };
  return { onResult, fetchMock, submit };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CreateGroupForm', () => {
  it.each(['\u200B\u200B', '\u2800', '\u115F\u3164'])(
    'refuses a name of invisible characters (%j) with the same message as the server, sending nothing',
    (name) => {
      const { onResult, fetchMock, submit } = setup();
      submit(name);
      expect(onResult).toHaveBeenCalledWith(GROUP_MESSAGES.nameInvisible);
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it('sends a visible name', async () => {
    const { onResult, fetchMock, submit } = setup();
    submit(' Our street ');
    await waitFor(() => expect(onResult).toHaveBeenCalledWith('created'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
