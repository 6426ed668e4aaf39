import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { CatSuggestionItem, CatSuggestionsResponse } from '@cats/contracts';
import { loadLanguage, startLanguage } from '../../../i18n/i18n-store.ts';
import { authStore } from '../../../lib/auth-store.ts';
import { CatSuggestions, type CatChoice, type OfferedCat } from './cat-suggestions.tsx';

const cat = (
  id: string,
  name: string,
  missing = false,
  overrides: Partial<CatSuggestionItem> = {},
): CatSuggestionItem => ({
  _id: id,
  name,
  cover: null,
  living: 'community',
  viewerIsCaretaker: false,
  missing,
  ...overrides,
});
const LUNA = cat('c1', 'Luna');
const MILO = cat('c2', 'Milo');
const PEPPER = cat('c3', 'Pepper');

type Point = { latitude: number; longitude: number };

/** The form's side of it: the choice and the new cat's name held in state, as the Spot page does. */
function Harness({
  near,
  pinned = null,
  initial = { kind: 'unsure' },
  onChoice,
}: {
  near: Point | null;
  pinned?: OfferedCat | null;
  initial?: CatChoice;
  onChoice?: (c: CatChoice) => void;
}) {
  const [choice, setChoice] = useState<CatChoice>(initial);
  const [name, setName] = useState('');
  return (
    <CatSuggestions
      near={near}
      pinned={pinned}
      choice={choice}
      onChoice={(next) => {
        onChoice?.(next);
        setChoice(next);
      }}
      newName={name}
      onNewName={setName}
      newNameError={name === 'x'.repeat(41) ? 'Name is at most 40 characters' : null}
    />
  );
}

function setup(props: Parameters<typeof Harness>[0], answer: () => Response | Promise<Response>) {
  authStore.set({ accessToken: 't', userId: 'me' });
  const fetchMock = vi.fn(async (url: string) => {
    if (url.startsWith('/api/cats/suggestions?')) return answer();
    return Response.json({ message: `unexpected ${url}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = (p: typeof props) => (
    <QueryClientProvider client={client}>
      <Harness {...p} />
    </QueryClientProvider>
  );
  const { rerender } = render(view(props));
  return { fetchMock, rerender: (p: typeof props) => rerender(view(p)) };
}

const group = () => screen.getByRole('group', { name: 'Which cat is this?' });
const radios = () =>
  within(group())
    .getAllByRole('radio')
    .map((r) => [
      r.closest('label')!.querySelector('.cat-choice__name')!.textContent,
      (r as HTMLInputElement).checked,
    ]);

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await act(() => startLanguage('en'));
});

describe('CatSuggestions', () => {
  it('asks for the cats seen near the place, lists them as a radio group, and "Not sure" is chosen', async () => {
    const { fetchMock } = setup({ near: { latitude: 36.7213, longitude: -4.4214 } }, () =>
      Response.json({ cats: [LUNA, MILO] } satisfies CatSuggestionsResponse),
    );
    expect(within(group()).getByText('Looking for cats seen near here...')).toBeTruthy();
    await within(group()).findByText('Luna');
    expect(radios()).toEqual([
      ['Luna', false],
      ['Milo', false],
      ['New cat', false],
      ['Not sure', true],
    ]);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/cats/suggestions?near=36.7213%2C-4.4214',
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    expect(screen.queryByText('Looking for cats seen near here...')).toBeNull();
  });

  it('chooses a cat with one tap, and shows which one is chosen', async () => {
    const chosen = vi.fn();
    setup({ near: { latitude: 1, longitude: 2 }, onChoice: chosen }, () =>
      Response.json({ cats: [LUNA, MILO] } satisfies CatSuggestionsResponse),
    );
    fireEvent.click(await within(group()).findByText('Milo'));
    expect(chosen).toHaveBeenLastCalledWith({ kind: 'cat', cat: MILO });
    expect(radios()).toEqual([
      ['Luna', false],
      ['Milo', true],
      ['New cat', false],
      ['Not sure', false],
    ]);
    // The chosen card wears a tick beside its checked radio.
    const card = screen.getByRole('radio', { name: 'Milo' }).closest('label')!;
    expect(card.querySelector('.cat-choice__tick')).not.toBeNull();
    expect(
      screen.getByRole('radio', { name: 'Luna' }).closest('label')!.querySelector('.cat-choice__tick'),
    ).toBeNull();
    fireEvent.click(screen.getByText('Not sure'));
    expect(chosen).toHaveBeenLastCalledWith({ kind: 'unsure' });
    expect(radios().at(-1)).toEqual(['Not sure', true]);
  });

  it('says which of the cats seen nearby is missing', async () => {
    const lost = cat('c9', 'Sombra', true);
    const chosen = vi.fn();
    setup({ near: { latitude: 1, longitude: 2 }, onChoice: chosen }, () =>
      Response.json({ cats: [lost, MILO] } satisfies CatSuggestionsResponse),
    );
    const radio = await within(group()).findByRole('radio', { name: 'Sombra Missing' });
    expect(within(radio.closest('label')!).getByText('Missing').className).toBe('missing-tag');
    expect(
      within(screen.getByRole('radio', { name: 'Milo' }).closest('label')!).queryByText('Missing'),
    ).toBeNull();
    fireEvent.click(radio);
    expect(chosen).toHaveBeenLastCalledWith({ kind: 'cat', cat: lost });
  });

  it('lists the cat of the address first, chosen, and asks nothing without a place', async () => {
    const { fetchMock } = setup({ near: null, pinned: PEPPER, initial: { kind: 'cat', cat: PEPPER } }, () =>
      Response.json({ cats: [] }),
    );
    expect(radios()).toEqual([
      ['Pepper', true],
      ['New cat', false],
      ['Not sure', false],
    ]);
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByText(/Looking for cats/)).toBeNull();
  });

  it("keeps the address's cat first when the place lists others, without listing it twice", async () => {
    setup({ near: { latitude: 1, longitude: 2 }, pinned: MILO, initial: { kind: 'cat', cat: MILO } }, () =>
      Response.json({ cats: [LUNA, MILO] } satisfies CatSuggestionsResponse),
    );
    await within(group()).findByText('Luna');
    expect(radios().map(([name]) => name)).toEqual(['Milo', 'Luna', 'New cat', 'Not sure']);
  });

  it('keeps a chosen cat listed and chosen when a corrected place no longer lists it', async () => {
    let answer: CatSuggestionItem[] = [LUNA, MILO];
    const { rerender } = setup({ near: { latitude: 1, longitude: 2 } }, () =>
      Response.json({ cats: answer }),
    );
    fireEvent.click(await within(group()).findByText('Milo'));
    answer = [PEPPER];
    rerender({ near: { latitude: 1.5, longitude: 2 } });
    await within(group()).findByText('Pepper');
    expect(radios()).toEqual([
      ['Milo', true],
      ['Pepper', false],
      ['New cat', false],
      ['Not sure', false],
    ]);
  });

  it("offers no household cat the viewer does not care for, but a caretaker's own (decision 022)", async () => {
    const neighbours = cat('c4', 'Tom', false, { living: 'household' });
    const mine = cat('c5', 'Nala', false, { living: 'household', viewerIsCaretaker: true });
    setup({ near: { latitude: 1, longitude: 2 } }, () =>
      Response.json({ cats: [neighbours, LUNA, mine] } satisfies CatSuggestionsResponse),
    );
    await within(group()).findByText('Luna');
    expect(radios().map(([name]) => name)).toEqual(['Luna', 'Nala', 'New cat', 'Not sure']);
  });

  it("says why the address's household cat is not offered, and that no other was seen nearby", async () => {
    const tom = cat('c4', 'Tom', false, { living: 'household' });
    setup({ near: { latitude: 1, longitude: 2 }, pinned: tom }, () =>
      Response.json({ cats: [tom] } satisfies CatSuggestionsResponse),
    );
    await within(group()).findByText('No cat has been seen near here lately.');
    expect(
      within(group()).getByText('Tom lives with someone: only its caretakers say which pictures show it.'),
    ).toBeTruthy();
    expect(radios()).toEqual([
      ['New cat', false],
      ['Not sure', true],
    ]);
  });

  it("offers the address's missing household cat, chosen, and says only its caretakers will see the link", async () => {
    const kira = cat('c4', 'Kira', true, { living: 'household' });
    setup({ near: null, pinned: kira, initial: { kind: 'cat', cat: kira } }, () =>
      Response.json({ cats: [] }),
    );
    expect(radios()).toEqual([
      ['Kira', true],
      ['New cat', false],
      ['Not sure', false],
    ]);
    expect(within(group()).getByText('Missing')).toBeTruthy();
    expect(
      within(group()).getByText("Only Kira's caretakers will see that your photo shows this cat."),
    ).toBeTruthy();
    expect(within(group()).queryByText(/lives with someone/)).toBeNull();
    fireEvent.click(within(group()).getByRole('radio', { name: 'Not sure' }));
    expect(within(group()).queryByText(/caretakers will see/)).toBeNull();
  });

  it('offers a missing household cat seen nearby, and says so only while it is chosen', async () => {
    const kira = cat('c4', 'Kira', true, { living: 'household' });
    const mine = cat('c5', 'Nala', true, { living: 'household', viewerIsCaretaker: true });
    setup({ near: { latitude: 1, longitude: 2 } }, () =>
      Response.json({ cats: [kira, LUNA, mine] } satisfies CatSuggestionsResponse),
    );
    await within(group()).findByText('Luna');
    expect(radios().map(([name]) => name)).toEqual(['Kira', 'Luna', 'Nala', 'New cat', 'Not sure']);
    expect(within(group()).queryByText(/caretakers will see/)).toBeNull();
    fireEvent.click(within(group()).getByRole('radio', { name: /Kira/ }));
    expect(
      within(group()).getByText("Only Kira's caretakers will see that your photo shows this cat."),
    ).toBeTruthy();
    // Their own cat, or a community one: nothing to say.
    fireEvent.click(within(group()).getByRole('radio', { name: /Nala/ }));
    expect(within(group()).queryByText(/caretakers will see/)).toBeNull();
    fireEvent.click(within(group()).getByRole('radio', { name: 'Luna' }));
    expect(within(group()).queryByText(/caretakers will see/)).toBeNull();
  });

  it('says in Spanish that only the missing household cat’s caretakers will see the link', async () => {
    await act(() => loadLanguage('es'));
    const kira = cat('c4', 'Kira', true, { living: 'household' });
    setup({ near: null, pinned: kira, initial: { kind: 'cat', cat: kira } }, () =>
      Response.json({ cats: [] }),
    );
    expect(
      screen.getByText('Solo quienes cuidan de Kira verán que tu foto muestra a este gato.'),
    ).toBeTruthy();
  });

  it('says so when no cat was seen nearby, and shows a failure as it is', async () => {
    setup({ near: { latitude: 1, longitude: 2 } }, () => Response.json({ cats: [] }));
    await within(group()).findByText('No cat has been seen near here lately.');
    expect(radios()).toEqual([
      ['New cat', false],
      ['Not sure', true],
    ]);
    cleanup();
    setup({ near: { latitude: 1, longitude: 2 } }, () =>
      Response.json({ message: 'near must be latitude,longitude' }, { status: 400 }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe('near must be latitude,longitude');
    // 'New cat' and 'Not sure' stay available.
    expect(radios()).toHaveLength(2);
  });

  it("'New cat' asks for the name at once, focused after a tap, with its error", async () => {
    setup({ near: { latitude: 1, longitude: 2 } }, () => Response.json({ cats: [LUNA] }));
    expect(screen.queryByLabelText("New cat's name")).toBeNull();
    const card = screen.getByText('New cat').closest('label')!;
    // A pointer's tap: the label's click carries a click count, then the radio's own click follows.
    fireEvent.click(card, { detail: 1 });
    const field = await screen.findByLabelText("New cat's name");
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(screen.getByRole('radio', { name: 'New cat' })).toHaveProperty('checked', true);
    fireEvent.change(field, { target: { value: 'x'.repeat(41) } });
    expect(screen.getByText('Name is at most 40 characters')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    // Leaving 'New cat' takes the field away.
    fireEvent.click(screen.getByText('Not sure'));
    expect(screen.queryByLabelText("New cat's name")).toBeNull();
  });

  it('moves between the choices with the keyboard without jumping into the name field', async () => {
    setup({ near: { latitude: 1, longitude: 2 } }, () => Response.json({ cats: [LUNA] }));
    await within(group()).findByText('Luna');
    const newCat = screen.getByRole('radio', { name: 'New cat' });
    newCat.focus();
    // A key press selects through the radio's own click (no click count on it).
    fireEvent.click(newCat, { detail: 0 });
    await screen.findByLabelText("New cat's name");
    expect(document.activeElement).toBe(newCat);
  });

  it('speaks Spanish', async () => {
    await act(() => loadLanguage('es'));
    setup({ near: { latitude: 1, longitude: 2 } }, () =>
      Response.json({ cats: [] } satisfies CatSuggestionsResponse),
    );
    const fieldset = screen.getByRole('group', { name: '¿Qué gato es?' });
    expect(
      await within(fieldset).findByText('Últimamente no se ha visto ningún gato cerca de aquí.'),
    ).toBeTruthy();
    fireEvent.click(within(fieldset).getByRole('radio', { name: 'Gato nuevo' }));
    expect(screen.getByLabelText('Nombre del gato nuevo')).toBeTruthy();
    expect(within(fieldset).getByRole('radio', { name: 'No lo sé' })).toBeTruthy();
  });

  it("says in Spanish why the address's household cat is not offered", async () => {
    await act(() => loadLanguage('es'));
    setup({ near: null, pinned: cat('c4', 'Tom', false, { living: 'household' }) }, () =>
      Response.json({ cats: [] }),
    );
    expect(
      screen.getByText('Tom vive con alguien: solo quienes cuidan de él dicen qué fotos lo muestran.'),
    ).toBeTruthy();
  });
});
