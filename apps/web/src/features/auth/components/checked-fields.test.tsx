import { act, renderHook } from '@testing-library/react';
import type { ChangeEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useCheckedFields } from './checked-fields.ts';
import { newPasswordRules } from './new-password-rules.ts';

const typed = (value: string) => ({ target: { value } }) as ChangeEvent<HTMLInputElement>;

describe('useCheckedFields', () => {
  it('shows a hint only once a field is left with something wrong in it, and tells of every edit', () => {
    const onEdit = vi.fn();
    const { result } = renderHook(() =>
      useCheckedFields({ password: '', confirm: '' }, newPasswordRules, onEdit),
    );
    expect(result.current.allValid).toBe(false);
    // Left empty: no hint.
    act(() => result.current.bind('password').onBlur());
    expect(result.current.showHint('password')).toBe(false);
    // Typing something wrong: no hint while typing in a field never left...
    act(() => result.current.bind('confirm').onChange(typed('x')));
    expect(result.current.showHint('confirm')).toBe(false);
    expect(onEdit).toHaveBeenCalledTimes(1);
    // ...then the hint once it is left; the visited, now wrong password shows its hint at once.
    act(() => result.current.bind('confirm').onBlur());
    expect(result.current.showHint('confirm')).toBe(true);
    act(() => result.current.bind('password').onChange(typed('short')));
    expect(result.current.showHint('password')).toBe(true);
    // Right: the hints go and the form is valid.
    act(() => result.current.bind('password').onChange(typed('Whiskers12')));
    act(() => result.current.bind('confirm').onChange(typed('Whiskers12')));
    expect(result.current.showHint('password')).toBe(false);
    expect(result.current.showHint('confirm')).toBe(false);
    expect(result.current.allValid).toBe(true);
    expect(result.current.bind('confirm').value).toBe('Whiskers12');
    expect(onEdit).toHaveBeenCalledTimes(4);
  });

  it('reveals a hint on demand (a submit with the field still wrong)', () => {
    const { result } = renderHook(() =>
      useCheckedFields(
        { email: '' },
        (v) => ({ email: v.email.includes('@') }),
        () => {},
      ),
    );
    act(() => result.current.bind('email').onChange(typed('nobody')));
    expect(result.current.showHint('email')).toBe(false);
    act(() => result.current.reveal('email'));
    expect(result.current.showHint('email')).toBe(true);
  });
});
