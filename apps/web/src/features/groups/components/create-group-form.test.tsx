import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation, useParams } from 'react-router';
import { GROUP_MESSAGES } from '@cats/contracts';
import { CreateGroupForm, type CreatedGroupState } from './create-group-form.tsx';

/** Stands in for the group page: shows where the form went and what it carried. */
function GroupProbe() {
  const { groupId } = useParams();
  const state = useLocation().state as CreatedGroupState | null;
  return (
    <p data-testid="group-page">
      {groupId}: {state?.created}
    </p>
  );
}

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
      <MemoryRouter initialEntries={['/groups']}>
        <Routes>
          <Route path="/groups" element={<CreateGroupForm onResult={onResult} />} />
          <Route path="/groups/:groupId" element={<GroupProbe />} />
        </Routes>
      </MemoryRouter>
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

  it("sends a visible name, then opens the new group's page with the result for its modal", async () => {
    const { onResult, fetchMock, submit } = setup();
    submit(' Our street ');
    const page = await screen.findByTestId('group-page');
    expect(page.textContent).toBe('g1: created');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(onResult).not.toHaveBeenCalled();
  });

  it('stays on the form and shows the refusal when creating fails', async () => {
    const { onResult, fetchMock, submit } = setup();
    fetchMock.mockImplementation(() =>
      Promise.resolve(
        new Response(JSON.stringify({ message: GROUP_MESSAGES.nameTooLong }), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        }),
      ),
    );
    submit('Our street');
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(GROUP_MESSAGES.nameTooLong));
    expect(screen.queryByTestId('group-page')).toBeNull();
  });
});
