import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { UserProfileResponse } from '@cats/contracts';
import { loadLanguage, startLanguage } from '../../../i18n/i18n-store.ts';
import { UserProfileHeader } from './user-profile-header.tsx';

const base: UserProfileResponse = {
  _id: 'u1',
  username: 'whiskers_fan',
  postCount: 12,
  memberSince: '2024-11-03T09:30:00.000Z',
};

function renderHeader(user: Partial<UserProfileResponse> = {}) {
  return render(
    <UserProfileHeader user={{ ...base, ...user }} actions={<button type="button">Block</button>} />,
  );
}

afterEach(async () => {
  cleanup();
  await act(() => startLanguage('en'));
});

describe('UserProfileHeader', () => {
  it('shows the name, how many pictures, since when they are a member (via Intl) and the actions', () => {
    renderHeader();
    expect(screen.getByRole('heading', { level: 1, name: 'whiskers_fan' })).toBeTruthy();
    expect(screen.getByText('12 pictures')).toBeTruthy();
    const since = screen.getByText('Member since November 2024');
    expect(since.tagName).toBe('TIME');
    expect(since.getAttribute('datetime')).toBe('2024-11-03T09:30:00.000Z');
    expect(screen.getByRole('button', { name: 'Block' })).toBeTruthy();
  });

  it('says one picture in the singular, and none in the plural', () => {
    renderHeader({ postCount: 1 });
    expect(screen.getByText('1 picture')).toBeTruthy();
    cleanup();
    renderHeader({ postCount: 0 });
    expect(screen.getByText('0 pictures')).toBeTruthy();
  });

  it('shows a small placeholder avatar without a picture, and the picture when there is one', () => {
    renderHeader();
    expect(screen.getByRole('img', { name: 'No profile picture' })).toBeTruthy();
    cleanup();
    renderHeader({ profilePicUrl: '/media/avatars/a/300.webp', avatarUrl: '/media/avatars/a/72.webp' });
    const picture = screen.getByRole('img', { name: 'Profile picture of whiskers_fan' });
    expect(picture.getAttribute('src')).toBe('/media/avatars/a/300.webp');
    expect(picture.getAttribute('width')).toBe('88');
  });

  it('leaves the date out when the server sends none (the demo viewer)', () => {
    renderHeader({ memberSince: undefined, username: 'Anonymised for demo' });
    expect(screen.queryByText(/^Member since/)).toBeNull();
    expect(screen.getByText('12 pictures')).toBeTruthy();
  });

  it('speaks Spanish, with the month in Spanish and Spanish plurals', async () => {
    await act(() => loadLanguage('es'));
    renderHeader({ postCount: 1200 });
    expect(screen.getByText('1200 fotos')).toBeTruthy();
    expect(screen.getByText('Miembro desde noviembre de 2024')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Sin foto de perfil' })).toBeTruthy();
    cleanup();
    renderHeader({ postCount: 1 });
    expect(screen.getByText('1 foto')).toBeTruthy();
  });
});
