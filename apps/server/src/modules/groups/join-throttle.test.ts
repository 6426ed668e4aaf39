import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_MESSAGES, type CreateGroupResponse } from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser } from '../../../test/factories.ts';
import { redisAnswers } from '../../../test/redis-answers.ts';

// Issue 23: wrong join codes are throttled per account and per address (10 in 10 minutes each).
const WRONG = 'Nowhere-AAAA-AAAA';
/** An address used nowhere else in this run (a random prefix per run: runs share Redis's counters). */
const prefix = `10.${randomInt(0, 256)}.${randomInt(0, 256)}`;
let hosts = 0;
const freshAddress = () => `${prefix}.${(hosts += 1)}`;

async function createGroup(t: TestApp, ownerId: string, name: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/groups/createGroup',
    headers: await authHeader(t.app, ownerId),
    payload: { submitData: name },
  });
  return (res.json() as CreateGroupResponse).group;
}

async function join(t: TestApp, userId: string, submitData: string, remoteAddress: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/groups/joinGroup',
    headers: await authHeader(t.app, userId),
    payload: { submitData },
    remoteAddress,
  });
  return {
    status: res.statusCode,
    body: res.json() as { message: string },
    retryAfter: res.headers['retry-after'],
  };
}

function expectThrottled(res: Awaited<ReturnType<typeof join>>) {
  expect({ status: res.status, body: res.body }).toEqual({
    status: 429,
    body: { message: GROUP_MESSAGES.tooManyWrongCodes },
  });
  const seconds = Number(res.retryAfter);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(600);
}

const notFound = { status: 400, body: { message: GROUP_MESSAGES.codeNotFound } };

describe('wrong join codes are throttled (in process)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('per account: 10 wrong codes, then 429 with Retry-After, the right code too', async () => {
    const owner = await createUser(t.db);
    const group = await createGroup(t, owner.id, 'Quiet Lane');
    const guesser = await createUser(t.db);
    // Each attempt from another address: only the account's counter can stop it.
    for (let i = 0; i < 10; i += 1) {
      const res = await join(t, guesser.id, WRONG, freshAddress());
      expect({ status: res.status, body: res.body }).toEqual(notFound);
    }
    expectThrottled(await join(t, guesser.id, WRONG, freshAddress()));
    expectThrottled(await join(t, guesser.id, group.code, freshAddress()));
    // Another account is not held back by this one's guesses.
    const neighbour = await createUser(t.db);
    expect((await join(t, neighbour.id, group.code, freshAddress())).status).toBe(200);
  });

  it('per address: accounts taking turns from one address are stopped after 10 wrong codes', async () => {
    const owner = await createUser(t.db);
    const group = await createGroup(t, owner.id, 'Shared Wifi');
    const address = freshAddress();
    for (let i = 0; i < 10; i += 1) {
      const account = await createUser(t.db);
      const res = await join(t, account.id, WRONG, address);
      expect({ status: res.status, body: res.body }).toEqual(notFound);
    }
    const fresh = await createUser(t.db);
    expectThrottled(await join(t, fresh.id, group.code, address));
    // The same account from another address is fine: its own count is clean.
    expect((await join(t, fresh.id, group.code, freshAddress())).status).toBe(200);
  });

  it('right codes cost nothing: 20 joins in a row from one account and address', async () => {
    const owner = await createUser(t.db);
    const joiner = await createUser(t.db);
    const address = freshAddress();
    for (let i = 0; i < 20; i += 1) {
      const group = await createGroup(t, owner.id, `Street ${i}`);
      expect((await join(t, joiner.id, group.code, address)).status).toBe(200);
    }
  });

  it('simultaneous wrong codes test at most 10', async () => {
    const guesser = await createUser(t.db);
    const address = freshAddress();
    const results = await Promise.all(Array.from({ length: 30 }, () => join(t, guesser.id, WRONG, address)));
    expect(results.filter((r) => r.status === 400)).toHaveLength(10);
    expect(results.filter((r) => r.status === 429)).toHaveLength(20);
  });
});

describe.skipIf(!(await redisAnswers()))(
  'wrong join codes are counted across instances through Redis',
  () => {
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      const env = { REDIS_URL: 'redis://127.0.0.1:6379' };
      [a, b] = [await buildTestApp(env), await buildTestApp(env)];
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it("one address's wrong codes on two instances add up", async () => {
      const address = freshAddress();
      // Accounts are per database, so each instance has its own; the address is what they share.
      for (let i = 0; i < 10; i += 1) {
        const app = i % 2 === 0 ? a : b;
        const account = await createUser(app.db);
        const res = await join(app, account.id, WRONG, address);
        expect({ status: res.status, body: res.body }).toEqual(notFound);
      }
      expectThrottled(await join(a, (await createUser(a.db)).id, WRONG, address));
      expectThrottled(await join(b, (await createUser(b.db)).id, WRONG, address));
    });
  },
);
