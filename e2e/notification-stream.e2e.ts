import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Post } from '@cats/contracts';
import { startServer, type RunningServer } from './support/server.ts';
import { Client, smallJpeg } from './support/faults.ts';
import { LiveStream } from './support/live-stream.ts';

/**
 * Issue 25, 'Reliability': a notification stream survives a restart of its server. The built server
 * (the embedded database unless TEST_DATABASE_URL's tests run it elsewhere) ends its streams when
 * told to stop, without holding up its shutdown; the client reconnects to the new process with the
 * last event id it saw and gets exactly what it missed. Two instances and a database restart:
 * scale-out.e2e.ts and db-restart.e2e.ts.
 */
describe('a notification stream across a server restart', () => {
  let server: RunningServer | undefined;
  let dataDir: string | undefined;
  let live: LiveStream | undefined;
  afterAll(async () => {
    await live?.stop();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('ends with the old process and replays on the new one what committed in between', async () => {
    server = await startServer({ seed: false });
    dataDir = server.dataDir;
    const author = await Client.create(server.url, 'streamer');
    const posted = async (seed: number) =>
      (
        await author.call<{ post: Post }>(
          'POST',
          '/api/posts/createPost',
          author.uploadForm(await smallJpeg(seed), `Cat ${seed}`),
        )
      ).body.post;
    const [first, second] = [await posted(1), await posted(2)];
    const fans = await Promise.all([0, 1, 2].map((i) => Client.create(server!.url, `fan${i}`)));
    const like = async (fan: Client, post: Post) => {
      fan.baseUrl = server!.url;
      expect((await fan.call('PUT', `/api/posts/likePost/${post._id}`, {})).status).toBe(200);
    };

    live = new LiveStream(
      () => server!.url,
      () => author.accessToken,
    );
    await live.start();
    await like(fans[0]!, first);
    await live.waitFor(() => live!.notifications().length === 1, 10_000, 'the first like');

    // The laptop sleeps through the restart: no reconnecting until the new process is up and the
    // likes below have committed.
    live.hold();
    const stopping = Date.now();
    expect(await server.stop()).toBe(0);
    const stopMs = Date.now() - stopping;
    await live.waitFor(() => !live!.isOpen(), 5_000, 'the stream to end');
    expect(stopMs, 'shutdown with a stream open (ms)').toBeLessThan(3_000);
    expect(server.logs()).not.toMatch(/error/i);

    server = await startServer({ dataDir, seed: false });
    await like(fans[1]!, first); // the first post's entry changes (two likers now)
    await like(fans[2]!, second);
    live.release();
    await live.waitFor(() => live!.notifications().length === 3, 15_000, 'the replay');
    const got = live.notifications();
    expect(got.map((n) => [n.post?._id, n.actorCount])).toEqual([
      [first._id, 1],
      [first._id, 2],
      [second._id, 1],
    ]);
    // Nothing twice: every change once, in order.
    expect(got.map((n) => n.seq)).toEqual([...new Set(got.map((n) => n.seq))].sort((a, b) => a - b));
    await live.waitFor(() => live!.events.at(-1)?.event === 'unread', 5_000, 'the count');
    expect(JSON.parse(live.events.at(-1)!.data)).toEqual({ count: 2 });
    expect(live.connections()).toBe(2);

    // And live again on the new process.
    await like(fans[0]!, second);
    await live.waitFor(() => live!.notifications().length === 4, 10_000, 'a like after the restart');
    expect(live.notifications().at(-1)).toMatchObject({ post: { _id: second._id }, actorCount: 2 });
  });
});
