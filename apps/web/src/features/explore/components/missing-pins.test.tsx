import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render } from '@testing-library/react';
import { MapContainer } from 'react-leaflet';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { MissingAlert } from '@cats/contracts';
import { fanOffsets, MissingPins } from './missing-pins.tsx';

afterEach(cleanup);

const alert = (i: number, name = `Cat ${i}`): MissingAlert => ({
  _id: `alert-${i}`,
  cat: { _id: `cat-${i}`, name, cover: null },
  lastSeenAt: '2026-11-26T08:00:00.000Z',
  place: { latitude: 51 + i / 100, longitude: -0.1 + i / 100, locationPrecision: 'approximate' },
  note: '',
  contact: 'report',
  raisedBy: null,
  createdAt: '2026-11-26T08:30:00.000Z',
  expiresAt: '2026-12-26T08:30:00.000Z',
  viewer: { isCaretaker: false, canReport: true },
});

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function Map({ alerts }: { alerts: MissingAlert[] }) {
  return (
    <MemoryRouter initialEntries={['/explore']}>
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
      <MapContainer center={[51, 0]} zoom={8} style={{ width: 400, height: 400 }}>
        <MissingPins alerts={alerts} />
      </MapContainer>
    </MemoryRouter>
  );
}

const pins = (c: HTMLElement) => [...c.querySelectorAll<HTMLElement>('.explore-missing-pin')];

describe('MissingPins', () => {
  it("draws a focusable red pin per alert of the viewport, named for screen readers, that opens the cat's page", () => {
    const { container, getByTestId } = render(<Map alerts={[alert(1, 'Luna'), alert(2, 'Nieve')]} />);
    const [luna, nieve] = pins(container);
    expect(pins(container)).toHaveLength(2);
    expect(luna!.getAttribute('role')).toBe('button');
    expect(luna!.title).toBe("Missing cat: Luna. Open the cat's page.");
    expect(luna!.querySelector('.visually-hidden')!.textContent).toBe(
      "Missing cat: Luna. Open the cat's page.",
    );
    expect(luna!.querySelector('svg path')!.getAttribute('fill')).toBe('#b3261e');
    fireEvent.click(luna!);
    expect(getByTestId('where').textContent).toBe('/cats/cat-1');
    fireEvent.keyDown(nieve!, { key: 'Enter' });
    expect(getByTestId('where').textContent).toBe('/cats/cat-2');
  });

  it('fans out the pins of alerts that share a place, each one visible and clickable', () => {
    const at = (i: number) => ({ ...alert(i), place: alert(1).place });
    const { container, getByTestId } = render(<Map alerts={[at(1), at(2), at(3), alert(4)]} />);
    const [a, b, c, alone] = pins(container);
    const margins = [a, b, c].map((pin) => pin!.style.marginLeft);
    expect(new Set(margins).size).toBe(3);
    // Centred on the place: the middle one where a lone pin would be.
    expect(b!.style.marginLeft).toBe(alone!.style.marginLeft);
    fireEvent.click(c!);
    expect(getByTestId('where').textContent).toBe('/cats/cat-3');
  });

  it('lays seven alerts of one place out in a row of five and a row of two above it', () => {
    const here = alert(1).place;
    const offsets = fanOffsets(Array.from({ length: 7 }, (_, i) => ({ ...alert(i + 1), place: here })));
    const rows = [...offsets.values()].reduce<Record<number, number[]>>((acc, o) => {
      (acc[o.y] ??= []).push(o.x);
      return acc;
    }, {});
    expect(
      Object.keys(rows)
        .map(Number)
        .sort((a, b) => b - a),
    ).toEqual([0, -56]);
    expect(rows[0]).toEqual([-88, -44, 0, 44, 88]);
    expect(rows[-56]).toEqual([-22, 22]);
    // A lone alert stays on its place.
    expect(fanOffsets([alert(9)]).get('alert-9')).toEqual({ x: 0, y: 0 });
  });

  it('keeps the pin of an alert that stays in view as the viewport moves, and removes the ones that left', () => {
    const { container, rerender } = render(<Map alerts={[alert(1), alert(2), alert(3)]} />);
    const [kept, , leaving] = pins(container);
    kept!.focus();
    rerender(<Map alerts={[alert(1), alert(4)]} />);
    const now = pins(container);
    expect(now).toHaveLength(2);
    expect(now).toContain(kept);
    expect(now).not.toContain(leaving);
    expect(now.map((el) => el.title).sort()).toEqual([
      "Missing cat: Cat 1. Open the cat's page.",
      "Missing cat: Cat 4. Open the cat's page.",
    ]);
    expect(document.activeElement).toBe(kept);
    rerender(<Map alerts={[]} />);
    expect(pins(container)).toEqual([]);
  });
});
