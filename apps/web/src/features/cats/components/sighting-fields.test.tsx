import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ChosenLocation } from '../../../components/location-picker/location-chooser.tsx';
import { stubGeolocation } from '../../../components/location-picker/test-geolocation.ts';
import { toLocalInput } from './missing-form.ts';
import { WhenAndWhereFields } from './sighting-fields.tsx';

const HOUR = 60 * 60 * 1000;

interface Options {
  whenError?: string;
  placeError?: string;
  disabled?: boolean;
  placeNote?: string;
}

/** The fields as a form holds them: the values in state, every change recorded. */
function setup({ whenError, placeError, disabled = false, placeNote }: Options = {}) {
  const changes: { when: string[]; place: (ChosenLocation | null)[] } = { when: [], place: [] };
  function Form() {
    const [when, setWhen] = useState('2026-11-20T08:30');
    const [place, setPlace] = useState<ChosenLocation | null>(null);
    return (
      <WhenAndWhereFields
        whenLabel="When did you see Luna?"
        when={when}
        onWhenChange={(next) => {
          changes.when.push(next);
          setWhen(next);
        }}
        whenError={whenError}
        whereLabel="Where did you see Luna?"
        place={place}
        onPlaceChange={(next) => {
          changes.place.push(next);
          setPlace(next);
        }}
        placeError={placeError}
        mapHelp="Drag the pin or tap the map where you saw the cat."
        mapLabel="Map for choosing where you saw the cat"
        disabled={disabled}
        placeNote={placeNote && <p>{placeNote}</p>}
      />
    );
  }
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Form />
    </QueryClientProvider>,
  );
  return changes;
}

afterEach(() => {
  cleanup();
  delete (navigator as { geolocation?: unknown }).geolocation;
  vi.unstubAllGlobals();
});

describe('WhenAndWhereFields', () => {
  it('asks when with a date and time no later than now, in the form’s words', () => {
    const changes = setup();
    const when = screen.getByLabelText('When did you see Luna?') as HTMLInputElement;
    expect(when.type).toBe('datetime-local');
    expect(when.required).toBe(true);
    expect(when.value).toBe('2026-11-20T08:30');
    // The browser's picker stops at this minute (or the next, if the minute turned meanwhile).
    const max = Date.parse(when.max);
    expect(Math.abs(max - Date.parse(toLocalInput(new Date())))).toBeLessThanOrEqual(60_000);
    const earlier = toLocalInput(new Date(Date.now() - HOUR));
    fireEvent.change(when, { target: { value: earlier } });
    expect(changes.when).toEqual([earlier]);
    expect(when.value).toBe(earlier);
  });

  it('asks where in a group of its own, and takes the device’s place, said as a sighting’s', async () => {
    stubGeolocation(36.7301, -4.4102);
    const changes = setup({ placeNote: "Your report's place is shared with the cat's caretakers." });
    const where = screen.getByRole('group', { name: 'Where did you see Luna?' });
    expect(within(where).getByText('Use your current location, or pick the place on the map.')).toBeTruthy();
    expect(within(where).getByText("Your report's place is shared with the cat's caretakers.")).toBeTruthy();
    // A sighting needs a place: the chooser offers no way to remove it.
    fireEvent.click(within(where).getByRole('button', { name: 'Use my current location' }));
    expect(
      await within(where).findByText('This is your current location, as your browser reported it.'),
    ).toBeTruthy();
    expect(changes.place).toEqual([expect.objectContaining({ latitude: 36.7301, longitude: -4.4102 })]);
    expect(within(where).queryByRole('button', { name: /remove/i })).toBeNull();
  });

  it('shows each field’s problem at the field, tied to it for screen readers', () => {
    setup({ whenError: 'The time cannot be in the future', placeError: 'Choose where the cat was seen' });
    const when = screen.getByLabelText('When did you see Luna?');
    expect(when.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The time cannot be in the future')).toBeTruthy();
    const where = screen.getByRole('group', { name: 'Where did you see Luna?' });
    const problem = within(where).getByText('Choose where the cat was seen');
    expect(where.getAttribute('aria-describedby')).toBe(problem.id);
    expect(problem.id).not.toBe('');
  });

  it('names no description when the place has no problem', () => {
    setup();
    expect(
      screen.getByRole('group', { name: 'Where did you see Luna?' }).hasAttribute('aria-describedby'),
    ).toBe(false);
  });

  it('keeps the place as it is while the form is being sent', () => {
    setup({ disabled: true });
    const where = screen.getByRole('group', { name: 'Where did you see Luna?' });
    const buttons = within(where).getAllByRole('button');
    expect(buttons.length).toBeGreaterThan(0);
    for (const button of buttons) expect(button).toHaveProperty('disabled', true);
  });
});
