import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLiveUsers } from './auth.ts';

/** A users table of one's own: which ids exist, and how often it was asked. */
function fakeUsers(...ids: string[]) {
  const existing = new Set(ids);
  const asked: string[] = [];
  return {
    existing,
    asked,
    lookup: async (id: string) => {
      asked.push(id);
      return existing.has(id) ? 0 : null;
    },
  };
}

describe('createLiveUsers', () => {
  it('asks the database once per account within the ttl, and again after it', async () => {
    const users = fakeUsers('a', 'b');
    const live = createLiveUsers(users.lookup, 40);
    expect(await live.exists('a')).toBe(true);
    expect(await live.exists('a')).toBe(true);
    expect(await live.exists('b')).toBe(true);
    expect(users.asked).toEqual(['a', 'b']);
    users.existing.delete('a');
    await sleep(80);
    expect(await live.exists('a')).toBe(false);
    expect(users.asked).toEqual(['a', 'b', 'a']);
  });

  it('never keeps a missing account: it is asked for every time, and seen once it exists', async () => {
    const users = fakeUsers();
    const live = createLiveUsers(users.lookup, 60_000);
    expect(await live.exists('new')).toBe(false);
    expect(await live.exists('new')).toBe(false);
    users.existing.add('new');
    expect(await live.exists('new')).toBe(true);
    expect(users.asked).toEqual(['new', 'new', 'new']);
  });

  it('forgets a deleted account at once, whatever the ttl', async () => {
    const users = fakeUsers('gone', 'stays');
    const live = createLiveUsers(users.lookup, 60_000);
    expect(await live.exists('gone')).toBe(true);
    expect(await live.exists('stays')).toBe(true);
    users.existing.delete('gone');
    live.forget('gone');
    expect(await live.exists('gone')).toBe(false);
    expect(await live.exists('stays')).toBe(true);
    expect(users.asked).toEqual(['gone', 'stays', 'gone']);
  });

  it('does not keep an answer that a deletion overtook', async () => {
    // The lookup reads the row, then the account is deleted and forgotten before the answer arrives:
    // the true it carries is stale and must not be kept for the ttl.
    let answer!: (found: number | null) => void;
    const asked: string[] = [];
    const live = createLiveUsers((id) => {
      asked.push(id);
      return asked.length === 1 ? new Promise((resolve) => (answer = resolve)) : Promise.resolve(null);
    }, 60_000);
    const inFlight = live.exists('racing');
    live.forget('racing');
    answer(0);
    expect(await inFlight).toBe(true);
    expect(await live.exists('racing')).toBe(false);
    expect(asked).toEqual(['racing', 'racing']);
  });
});
