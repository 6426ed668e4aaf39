import { describe, expect, it } from 'vitest';
import type { Executor } from '../db/client.ts';
import { EventBus } from './events.ts';

// The handlers never touch it: a stand-in for the cause's transaction.
const tx = {} as Executor;
const shared = { tx, postId: 'p1', authorId: 'u1', groupIds: ['g1'] };

describe('EventBus', () => {
  it('runs every handler of an event, one after the other in the order they subscribed, and waits for them', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.on('post.shared', async ({ postId }) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen.push(`first ${postId}`);
    });
    bus.on('post.shared', ({ groupIds }) => {
      seen.push(`second ${groupIds.join(',')}`);
    });
    bus.on('post.unshared', () => {
      seen.push('another event');
    });
    await bus.emit('post.shared', shared);
    expect(seen).toEqual(['first p1', 'second g1']);
  });

  it('fails the emit when a handler throws, and runs no handler after it', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.on('post.shared', () => {
      throw new Error('could not write');
    });
    bus.on('post.shared', () => {
      seen.push('later');
    });
    await expect(bus.emit('post.shared', shared)).rejects.toThrow('could not write');
    expect(seen).toEqual([]);
  });

  it('stops a handler that unsubscribed, and answers an event nobody listens to', async () => {
    const bus = new EventBus();
    let calls = 0;
    const stop = bus.on('post.shared', () => {
      calls += 1;
    });
    await bus.emit('post.shared', shared);
    stop();
    await bus.emit('post.shared', shared);
    await bus.emit('moderation.outcome', { tx, recipientId: 'u2', type: 'report_outcome', actionId: 'a1' });
    expect(calls).toBe(1);
  });
});
