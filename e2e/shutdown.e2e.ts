import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommentsResponse } from '@cats/contracts';
import { startServer, type RunningServer } from './support/server.ts';
import { apiCall, apiCreatePost, apiUser } from './support/posts.ts';
import { apiLogin } from './support/api.ts';
import { freshDatabase, sleep } from './support/faults.ts';
import { LiveStream } from './support/live-stream.ts';

const IN_FLIGHT = 20;

/**
 * Opens a comment request and sends its headers and half of its body, so the server is
 * certainly handling it (not merely holding an unread connection) when the signal arrives.
 */
function halfSentComment(url: string, token: string, postId: string, text: string) {
  const body = Buffer.from(JSON.stringify({ newComment: text }));
  const half = Math.floor(body.length / 2);
  let req!: ClientRequest;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req = httpRequest(
      `${url}/api/posts/createComment/${postId}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': String(body.length),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
  });
  req.write(body.subarray(0, half));
  return { answer, finish: () => req.end(body.subarray(half)) };
}

/** Issue 2, point 7: SIGTERM stops accepting, finishes in-flight requests, closes the database cleanly. */
describe('graceful shutdown', () => {
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.dispose();
  });

  it('answers every request already in flight, exits 0, and keeps its data', async () => {
    server = await startServer({ seed: false });
    const user = await apiUser(server.url, 'shutdown');
    const post = await apiCreatePost(server.url, user.accessToken, { comment: 'Waiting for the last train' });

    const inFlight = Array.from({ length: IN_FLIGHT }, (_, i) =>
      halfSentComment(server!.url, user.accessToken, post._id, `Still here ${i}`),
    );
    // Loopback delivers the headers at once; this margin only absorbs a busy CI machine.
    await sleep(500);
    const exit = server.stop();
    await sleep(300);

    // The process waits for the unfinished requests, and no longer takes new connections.
    expect(server.process.exitCode).toBeNull();
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();

    for (const request of inFlight) request.finish();
    const answers = await Promise.all(inFlight.map((r) => r.answer));
    expect(answers.map((a) => a.status)).toEqual(Array(IN_FLIGHT).fill(200));
    expect(await exit).toBe(0);
    expect(server.logs()).not.toMatch(/error/i);

    const restarted = await startServer({ dataDir: server.dataDir, seed: false });
    try {
      const again = await apiLogin(restarted.url, user.email, user.password);
      const { comments } = await apiCall<CommentsResponse>(
        restarted.url,
        again.accessToken,
        `/api/posts/getComments/${post._id}`,
      );
      expect(comments.map((c) => c.comment).sort()).toEqual(
        Array.from({ length: IN_FLIGHT }, (_, i) => `Still here ${i}`).sort(),
      );
    } finally {
      await restarted.stop();
    }
  });

  /**
   * Issue 29: on SIGTERM the server first drains for SHUTDOWN_DRAIN_SECONDS. Readiness answers 503 so
   * that a load balancer sends its traffic elsewhere, while liveness stays ok and every request, new
   * ones included, is still served; then it stops as above, ending its notification streams.
   */
  it('drains before it stops: readiness 503, liveness 200 and requests served, then exits 0', async () => {
    const DRAIN_SECONDS = 3;
    // On PostgreSQL when TEST_DATABASE_URL names a server, else on the embedded database.
    const database = await freshDatabase('cats_drain');
    const token = 'drain-test-metrics-token-0123456789';
    const draining = await startServer({
      seed: false,
      env: {
        SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
        METRICS_TOKEN: token,
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
    });
    const drainingGauge = async () => {
      const res = await fetch(`${draining.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      return /^cats_draining (\d+)$/m.exec(await res.text())?.[1];
    };
    let live: LiveStream | undefined;
    try {
      const readiness = () => fetch(`${draining.url}/api/health/ready`);
      const ready = await readiness();
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok' } });
      const user = await apiUser(draining.url, 'drain');
      live = new LiveStream(
        () => draining.url,
        () => user.accessToken,
      );
      await live.start();
      await live.waitFor(() => live!.isOpen(), 10_000, 'the stream to open');

      // No reconnecting from here: a stream ended during the drain would show as closed below.
      live.hold();
      expect(await drainingGauge()).toBe('0');
      const signalled = Date.now();
      const exit = draining.stop();
      await expect.poll(async () => (await readiness()).status, { timeout: 2_000, interval: 50 }).toBe(503);
      const answer = await readiness();
      expect(answer.headers.get('connection')).toBe('close');
      expect(await answer.json()).toEqual({
        status: 'draining',
        message: 'The server is shutting down',
        checks: {},
      });
      expect(await drainingGauge()).toBe('1');
      const liveness = await fetch(`${draining.url}/api/health`);
      expect(liveness.status).toBe(200);
      expect(await liveness.json()).toEqual({ status: 'ok' });
      // A new request, a write, is still served while draining; the stream is still open.
      const post = await apiCreatePost(draining.url, user.accessToken, { comment: 'Posted while draining' });
      expect(post._id).toMatch(/^[0-9a-f-]{36}$/);
      expect(live.isOpen()).toBe(true);
      expect(draining.process.exitCode).toBeNull();

      // Then it closes as before: the stream is ended, the process exits 0 soon after the drain.
      expect(await exit).toBe(0);
      const tookMs = Date.now() - signalled;
      expect(tookMs).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000 - 100);
      expect(tookMs, 'drain and stop with a stream open (ms)').toBeLessThan(DRAIN_SECONDS * 1000 + 3_000);
      await live.waitFor(() => !live!.isOpen(), 5_000, 'the stream to end');
      await expect(fetch(`${draining.url}/api/health`)).rejects.toThrow();
      expect(draining.logs()).not.toMatch(/error/i);
    } finally {
      await live?.stop();
      await draining.dispose();
      await database?.drop();
    }
  });
});
