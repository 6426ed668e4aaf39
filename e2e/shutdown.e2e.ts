import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommentsResponse } from '@cats/contracts';
import { startServer, type RunningServer } from './support/server.ts';
import { apiCall, apiCreatePost, apiUser } from './support/posts.ts';
import { apiLogin } from './support/api.ts';
import { sleep } from './support/faults.ts';

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
});
