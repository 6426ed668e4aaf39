import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { OneLinePerRequest } from './request-log.ts';

/** A Fastify instance whose log lines are collected, parsed. */
async function appWithLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n')) if (text) lines.push(JSON.parse(text));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream }, logController: new OneLinePerRequest() });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/fails', async () => {
    throw Object.assign(new Error('no such cat'), { statusCode: 404 });
  });
  await app.ready();
  return { app, lines };
}

describe('request log', () => {
  it('writes one line per answered request, with the request, its status and its time', async () => {
    const { app, lines } = await appWithLog();
    const res = await app.inject({ method: 'GET', url: '/ok?x=1' });
    expect(res.statusCode).toBe(200);
    await app.close();
    const requestLines = lines.filter((l) => l.reqId !== undefined);
    expect(requestLines).toHaveLength(1);
    const [line] = requestLines;
    expect(line).toMatchObject({
      msg: 'request completed',
      level: 30,
      req: { method: 'GET', url: '/ok?x=1' },
      res: { statusCode: 200 },
    });
    expect(typeof line!.responseTime).toBe('number');
  });

  it("leaves out Fastify's other per-request lines: a refused request is one line too", async () => {
    const { app, lines } = await appWithLog();
    expect((await app.inject({ method: 'GET', url: '/fails' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/nowhere' })).statusCode).toBe(404);
    await app.close();
    const requestLines = lines.filter((l) => l.reqId !== undefined);
    expect(
      requestLines.map((l) => [
        l.msg,
        (l.req as { url: string }).url,
        (l.res as { statusCode: number }).statusCode,
      ]),
    ).toEqual([
      ['request completed', '/fails', 404],
      ['request completed', '/nowhere', 404],
    ]);
  });
});
