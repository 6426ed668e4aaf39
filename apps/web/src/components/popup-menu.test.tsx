import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MenuItem, PopupMenu } from './popup-menu.tsx';

afterEach(cleanup);

function setup() {
  const chosen = vi.fn();
  render(
    <>
      <p>Outside</p>
      <PopupMenu label="Post options">
        <MenuItem onSelect={() => chosen('edit')}>Edit</MenuItem>
        <MenuItem onSelect={() => chosen('share')}>Share</MenuItem>
        <MenuItem onSelect={() => chosen('location')} disabled hint="No GPS data available">
          Show location on map
        </MenuItem>
        <MenuItem onSelect={() => chosen('delete')}>Delete</MenuItem>
      </PopupMenu>
      <button type="button">After</button>
    </>,
  );
  const button = screen.getByRole('button', { name: 'Post options' });
  const focused = () => document.activeElement?.firstChild?.textContent;
  return { chosen, button, focused, menu: () => screen.queryByRole('menu') };
}

describe('PopupMenu', () => {
  it('opens on a click with focus on the first item; the arrow keys move and wrap, Home and End jump', () => {
    const { button, focused, menu } = setup();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-controls')).toBe(menu()!.id);
    expect(focused()).toBe('Edit');
    const key = (k: string) => fireEvent.keyDown(document.activeElement!, { key: k });
    key('ArrowDown');
    expect(focused()).toBe('Share');
    // A disabled item still takes focus, so its hint is read.
    key('ArrowDown');
    expect(focused()).toBe('Show location on map');
    key('ArrowDown');
    key('ArrowDown');
    expect(focused()).toBe('Edit');
    key('ArrowUp');
    expect(focused()).toBe('Delete');
    key('Home');
    expect(focused()).toBe('Edit');
    key('End');
    expect(focused()).toBe('Delete');
  });

  it('opens from the keyboard on ArrowDown (first item) and ArrowUp (last item)', () => {
    const { button, focused, menu } = setup();
    fireEvent.keyDown(button, { key: 'ArrowUp' });
    expect(menu()).not.toBeNull();
    expect(focused()).toBe('Delete');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(menu()).toBeNull();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    expect(focused()).toBe('Edit');
  });

  it('Escape closes it and puts focus back on the button', () => {
    const { button, menu } = setup();
    fireEvent.click(button);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(menu()).toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('a press outside closes it; a press inside does not', () => {
    const { button, menu } = setup();
    fireEvent.click(button);
    fireEvent.pointerDown(screen.getByRole('menuitem', { name: 'Share' }));
    expect(menu()).not.toBeNull();
    fireEvent.pointerDown(screen.getByText('Outside'));
    expect(menu()).toBeNull();
  });

  it('focus leaving closes it', () => {
    const { button, menu } = setup();
    fireEvent.click(button);
    const after = screen.getByRole('button', { name: 'After' });
    fireEvent.blur(document.activeElement!, { relatedTarget: after });
    expect(menu()).toBeNull();
  });

  it('choosing an item closes the menu, focus on the button, then acts; a disabled item does nothing', () => {
    const { button, chosen, menu } = setup();
    fireEvent.click(button);
    fireEvent.click(screen.getByRole('menuitem', { name: /Show location on map/ }));
    expect(chosen).not.toHaveBeenCalled();
    expect(menu()).not.toBeNull();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Share' }));
    expect(chosen).toHaveBeenCalledWith('share');
    expect(menu()).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('a second click on the button closes it', () => {
    const { button, menu } = setup();
    fireEvent.click(button);
    fireEvent.click(button);
    expect(menu()).toBeNull();
  });
});
