import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { CatListItem } from '@cats/contracts';
import { ApiError } from '../../lib/api-client.ts';
import { CatSearchList, type CatSearchState } from './cat-search-list.tsx';
import { testCatListItem } from './test-cat.ts';

const LUNA: CatListItem = {
  ...testCatListItem('c1', 'Luna', new Date().toISOString()),
  cover: {
    postId: 'p1',
    image: { width: 800, height: 800, placeholder: '', variants: { '300': '/media/p1/300.webp' } },
    altText: null,
  },
};
const LULU = testCatListItem('c2', 'Lulu');

const answered: CatSearchState = {
  isPending: false,
  isFetching: false,
  isError: false,
  isSuccess: true,
  error: null,
};

function renderList(props: Partial<Parameters<typeof CatSearchList>[0]> = {}) {
  const onSearch = vi.fn();
  const onChoose = vi.fn();
  render(
    <CatSearchList
      label="Search cats by name"
      onSearch={onSearch}
      search={answered}
      cats={[LUNA, LULU]}
      loadingText="Looking for cats..."
      emptyText="No cat has that name."
      listLabel="Cats"
      onChoose={onChoose}
      {...props}
    />,
  );
  return { onSearch, onChoose };
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('CatSearchList', () => {
  it('asks for the trimmed name once typing pauses, not at every key', () => {
    vi.useFakeTimers();
    const { onSearch } = renderList();
    act(() => vi.advanceTimersByTime(250));
    expect(onSearch.mock.calls).toEqual([['']]);
    const field = screen.getByLabelText('Search cats by name');
    fireEvent.change(field, { target: { value: 'l' } });
    act(() => vi.advanceTimersByTime(100));
    fireEvent.change(field, { target: { value: ' lu ' } });
    act(() => vi.advanceTimersByTime(249));
    expect(onSearch.mock.calls).toEqual([['']]);
    act(() => vi.advanceTimersByTime(1));
    expect(onSearch.mock.calls).toEqual([[''], ['lu']]);
  });

  it('lists each cat with its cover photo, name and last sighting, and chooses the one tapped', () => {
    const { onChoose } = renderList();
    const list = screen.getByRole('list', { name: 'Cats' });
    const options = within(list).getAllByRole('button');
    expect(options.map((o) => o.querySelector('.which-cat__name')?.textContent)).toEqual(['Luna', 'Lulu']);
    expect(options[0]!.textContent).toContain('Last seen just now.');
    expect(options[0]!.querySelector('img')).not.toBeNull();
    // No photo: a paw in its place.
    expect(options[1]!.querySelector('img')).toBeNull();
    expect(options[1]!.querySelector('.cat-thumb--empty')).not.toBeNull();
    fireEvent.click(options[1]!);
    expect(onChoose).toHaveBeenCalledExactlyOnceWith(LULU);
  });

  it('says which cats are missing, and a missing cat is chosen like any other', () => {
    const lost = testCatListItem('c3', 'Sombra', null, true);
    const { onChoose } = renderList({ cats: [LUNA, lost] });
    const option = screen.getByRole('button', { name: /^Sombra Missing/ });
    expect(within(option).getByText('Missing').className).toBe('missing-tag');
    expect(within(screen.getByRole('button', { name: /^Luna/ })).queryByText('Missing')).toBeNull();
    fireEvent.click(option);
    expect(onChoose).toHaveBeenCalledExactlyOnceWith(lost);
  });

  it('marks the linked cat, which cannot be chosen again, when the list links a picture', () => {
    const { onChoose } = renderList({ linkedCatId: 'c1' });
    const luna = screen.getByRole('button', { name: /Luna/ });
    const lulu = screen.getByRole('button', { name: /Lulu/ });
    expect(luna.getAttribute('aria-pressed')).toBe('true');
    expect(luna).toHaveProperty('disabled', true);
    expect(within(luna).getByText('Linked')).toBeTruthy();
    expect(lulu.getAttribute('aria-pressed')).toBe('false');
    expect(within(lulu).queryByText('Linked')).toBeNull();
    fireEvent.click(luna);
    expect(onChoose).not.toHaveBeenCalled();
  });

  it('has plain options when nothing is linked by the choice', () => {
    renderList();
    for (const option of screen.getAllByRole('button')) {
      expect(option.hasAttribute('aria-pressed')).toBe(false);
      expect(option).toHaveProperty('disabled', false);
    }
    expect(screen.queryByText('Linked')).toBeNull();
  });

  it('lets no cat be chosen while a choice is being saved', () => {
    const { onChoose } = renderList({ disabled: true, linkedCatId: null });
    const options = screen.getAllByRole('button');
    expect(options.map((o) => (o as HTMLButtonElement).disabled)).toEqual([true, true]);
    fireEvent.click(options[0]!);
    expect(onChoose).not.toHaveBeenCalled();
  });

  it("says the caller's words while loading, when nothing is found, and the server's on a failure", () => {
    renderList({ search: { ...answered, isPending: true, isSuccess: false, isFetching: true }, cats: [] });
    expect(screen.getByRole('status').textContent).toBe('Looking for cats...');
    cleanup();

    renderList({ cats: [] });
    expect(screen.getByText('No cat has that name.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    cleanup();

    renderList({
      search: { ...answered, isSuccess: false, isError: true, error: new ApiError(500, 'Search failed') },
      cats: [],
    });
    expect(screen.getByRole('alert').textContent).toBe('Search failed');
    expect(screen.queryByText('No cat has that name.')).toBeNull();
  });
});
