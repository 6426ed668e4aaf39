import type * as crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreateGroupResponse } from '@cats/contracts';
import { groups } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { CODE_ALPHABET } from './join-codes.ts';
import { authHeader, createUser, type CreatedUser } from '../../../test/factories.ts';

// The secret of a join code comes from crypto.randomInt, one call per character: scripted here to
// force collisions.
const digits = vi.hoisted(() => ({ queue: [] as number[] }));
/** The randomInt answers that spell this secret, e.g. '1234ABCD'. */
const spell = (secret: string) => [...secret].map((c) => CODE_ALPHABET.indexOf(c));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof crypto>();
  const randomInt = (min: number, max: number): number => digits.queue.shift() ?? actual.randomInt(min, max);
  return { ...actual, randomInt };
});

describe('join codes: unique case-insensitively, retried on collision', () => {
  let t: TestApp;
  let owner: CreatedUser;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.db);
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    digits.queue = [];
  });

  const create = async (name: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/groups/createGroup',
      headers: await authHeader(t.app, owner.id),
      payload: { submitData: name },
    });

  it('retries with new digits when the code is taken, whatever its case', async () => {
    await t.db.insert(groups).values([
      { name: 'Oslo', code: 'Oslo-1234-ABCD', ownerId: owner.id },
      { name: 'oslo', code: 'OSLO-1111-2222', ownerId: owner.id },
    ]);
    digits.queue = [...spell('1234abcd'.toUpperCase()), ...spell('11112222'), ...spell('00000042')];
    const res = await create('Oslo');
    expect(res.statusCode).toBe(200);
    expect((res.json() as CreateGroupResponse).group.code).toBe('Oslo-0000-0042');
    expect(digits.queue).toEqual([]);
  });

  it('gives up with 409 after repeated collisions, creating nothing', async () => {
    await t.db.insert(groups).values({ name: 'Bergen', code: 'Bergen-7777-7777', ownerId: owner.id });
    digits.queue = Array.from({ length: 12 }, () => spell('77777777')).flat();
    const before = (await t.db.select().from(groups)).length;
    const res = await create('Bergen');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Could not find a free group code, please try again' });
    expect((await t.db.select().from(groups)).length).toBe(before);
  });

  it('a new code is never the old one', async () => {
    digits.queue = spell('55555555');
    const group = ((await create('Tromso')).json() as CreateGroupResponse).group;
    expect(group.code).toBe('Tromso-5555-5555');
    digits.queue = [...spell('55555555'), ...spell('66666666')];
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/groups/${group._id}/code`,
      headers: await authHeader(t.app, owner.id),
    });
    expect(res.json()).toMatchObject({ code: 'Tromso-6666-6666' });
  });
});
