import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './support/server.ts';
import { apiLogin, signUp } from './support/api.ts';

/** Issue 2, point 7: SIGTERM stops accepting, finishes in-flight requests, closes the database cleanly. */
describe('graceful shutdown', () => {
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.dispose();
  });

  it('answers every request already in flight, exits 0, and keeps its data', async () => {
    server = await startServer({ seed: false });
    const user = await signUp(server.url);
    const { accessToken } = await apiLogin(server.url, user.email, user.password);
    const headers = { authorization: `Bearer ${accessToken}` };

    const inFlight = Array.from({ length: 40 }, (_, i) =>
      fetch(`${server!.url}/api/${i % 2 ? 'feed/1' : 'profile/getMyProfile'}`, { headers }).then((r) => r.status),
    );
    // Give the requests time to be accepted, then ask the process to stop while they run.
    await new Promise((r) => setTimeout(r, 30));
    const exit = server.stop();
    const statuses = await Promise.all(inFlight);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(await exit).toBe(0);
    expect(server.logs()).not.toMatch(/error/i);

    const restarted = await startServer({ dataDir: server.dataDir, seed: false });
    try {
      const again = await apiLogin(restarted.url, user.email, user.password);
      expect(again.userId).toBeTruthy();
    } finally {
      await restarted.stop();
    }
  });
});
