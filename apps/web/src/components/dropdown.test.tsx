import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Dropdown } from './dropdown.tsx';

afterEach(cleanup);

function setup() {
  render(
    <>
      <p>Outside</p>
      <Dropdown label="Profile">
        <ul>
          <li>
            <a href="#me" className="dropdown__item">
              My profile
            </a>
          </li>
          <li>
            <button type="button" className="dropdown__item">
              Logout
            </button>
          </li>
        </ul>
      </Dropdown>
    </>,
  );
  const toggle = screen.getByRole('button', { name: 'Profile' });
  return { toggle, expanded: () => toggle.getAttribute('aria-expanded') };
}

describe('Dropdown', () => {
  it('opens and closes with its toggle, which controls the panel', () => {
    const { toggle, expanded } = setup();
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(expanded()).toBe('false');
    expect(panel.hidden).toBe(true);
    fireEvent.click(toggle);
    expect(expanded()).toBe('true');
    expect(panel.hidden).toBe(false);
    fireEvent.click(toggle);
    expect(expanded()).toBe('false');
  });

  it('closes on a link or button click inside', () => {
    const { toggle, expanded } = setup();
    fireEvent.click(toggle);
    fireEvent.click(screen.getByRole('link', { name: 'My profile' }));
    expect(expanded()).toBe('false');
    fireEvent.click(toggle);
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(expanded()).toBe('false');
  });

  it('closes on a press outside', () => {
    const { toggle, expanded } = setup();
    fireEvent.click(toggle);
    fireEvent.pointerDown(screen.getByText('My profile'));
    expect(expanded()).toBe('true');
    fireEvent.pointerDown(screen.getByText('Outside'));
    expect(expanded()).toBe('false');
  });

  it('closes on Escape and gives focus back to the toggle', () => {
    const { toggle, expanded } = setup();
    fireEvent.click(toggle);
    const link = screen.getByRole('link', { name: 'My profile' });
    link.focus();
    fireEvent.keyDown(link, { key: 'Escape' });
    expect(expanded()).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });
});
