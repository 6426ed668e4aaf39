import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import type { Notification } from '@cats/contracts';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import { notification, user } from './notification-fixtures.ts';
import { NotificationText } from './notification-text.tsx';

const sentence = (over: Partial<Notification>) =>
  render(<NotificationText notification={notification(over)} />).container.textContent;

const group = { _id: 'g1', name: 'Tapas Cats' };

afterEach(async () => {
  cleanup();
  await act(() => loadLanguage('en'));
});

describe('NotificationText', () => {
  it('counts the others who liked, in the singular and the plural', () => {
    expect(sentence({ actorCount: 1 })).toBe('mariposa liked your picture');
    expect(sentence({ actors: [user('mariposa'), user('luna')], actorCount: 2 })).toBe(
      'mariposa and 1 other liked your picture',
    );
    expect(sentence({ actors: [user('mariposa'), user('luna'), user('tom')], actorCount: 5 })).toBe(
      'mariposa and 4 others liked your picture',
    );
  });

  it('writes a whole sentence for every other type', () => {
    expect(
      sentence({
        type: 'comment',
        comment: { _id: 'c1', excerpt: 'What a floof' },
        link: '/posts/p1#comment-c1',
      }),
    ).toBe('mariposa commented on your picture: “What a floof”');
    expect(sentence({ type: 'reply' })).toBe('mariposa replied on a picture you commented on');
    expect(sentence({ type: 'join_request', post: null, group })).toBe('mariposa asked to join Tapas Cats');
    expect(sentence({ type: 'request_accepted', actors: [], actorCount: 0, post: null, group })).toBe(
      'You are now a member of Tapas Cats',
    );
    expect(sentence({ type: 'request_declined', actors: [], actorCount: 0, post: null, group })).toBe(
      'Your request to join Tapas Cats was declined',
    );
    expect(sentence({ type: 'removed_from_group', actors: [], actorCount: 0, post: null, group })).toBe(
      'You were removed from Tapas Cats',
    );
    expect(sentence({ type: 'group_share', group })).toBe('mariposa shared a picture with Tapas Cats');
    expect(sentence({ type: 'cat_sighting', cat: { _id: 'cat1', name: 'Luna' } })).toBe(
      'mariposa spotted Luna',
    );
    expect(sentence({ type: 'cat_suggestion', cat: { _id: 'cat1', name: 'Luna' } })).toBe(
      'mariposa suggests your picture shows Luna',
    );
    expect(sentence({ type: 'cat_suggestion_accepted', cat: { _id: 'cat1', name: 'Luna' } })).toBe(
      'mariposa agreed that their picture shows Luna',
    );
  });

  it('says which cat is missing near the reader, is back home, or was seen, each as one sentence', () => {
    const cat = { _id: 'cat1', name: 'Luna' };
    expect(sentence({ type: 'cat_missing_nearby', cat })).toBe('Luna is missing near your home area');
    expect(sentence({ type: 'cat_found', cat })).toBe('Luna is back home');
    expect(sentence({ type: 'missing_report', cat })).toBe('mariposa saw Luna, who is missing');
  });

  it('names the cat of a sighting as a part of the sentence, as it names people and groups', () => {
    const { container } = render(
      <NotificationText
        notification={notification({ type: 'cat_sighting', cat: { _id: 'cat1', name: 'Luna' } })}
      />,
    );
    expect([...container.querySelectorAll('strong')].map((s) => [s.className, s.textContent])).toEqual([
      ['notification__name', 'mariposa'],
      ['notification__cat', 'Luna'],
    ]);
  });

  it('names the newest actor and emphasises names', () => {
    const { container } = render(
      <NotificationText
        notification={notification({ actors: [user('luna'), user('mariposa')], actorCount: 2 })}
      />,
    );
    expect(container.querySelector('strong')?.textContent).toBe('luna');
  });

  it('still reads as a sentence when the actor is gone', () => {
    expect(sentence({ actors: [], actorCount: 1 })).toBe('Someone liked your picture');
  });

  it("tells when a suspension ends, as a date in the reader's language", () => {
    const moderation = {
      action: 'suspend',
      targetType: 'user',
      suspendedUntil: '2026-12-02T14:00:00.000Z',
    } as unknown as NonNullable<Notification['moderation']>;
    const { container } = render(
      <NotificationText notification={notification({ type: 'moderation_decision', moderation })} />,
    );
    expect(container.textContent).toMatch(/^Your account is suspended until [23] December 2026 at \d\d:00$/);
    expect(container.querySelector('time')?.getAttribute('datetime')).toBe('2026-12-02T14:00:00.000Z');
  });

  it('speaks Spanish, with the others who liked as a plural', async () => {
    await act(() => loadLanguage('es'));
    expect(sentence({ actorCount: 1 })).toBe('mariposa ha dado «me gusta» a tu foto');
    expect(sentence({ actors: [user('mariposa'), user('luna')], actorCount: 2 })).toBe(
      'mariposa y 1 persona más han dado «me gusta» a tu foto',
    );
    expect(sentence({ actors: [user('mariposa')], actorCount: 5 })).toBe(
      'mariposa y 4 personas más han dado «me gusta» a tu foto',
    );
    expect(sentence({ type: 'join_request', post: null, group })).toBe(
      'mariposa ha pedido unirse a Tapas Cats',
    );
    expect(sentence({ actors: [], actorCount: 1 })).toBe('Alguien ha dado «me gusta» a tu foto');
  });
});
