import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_MESSAGES, type CreateGroupResponse, type GroupDetail } from '@cats/contracts';
import { groups } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser, type CreatedUser } from '../../../test/factories.ts';
import { generateCode } from './groups.service.ts';

// Issue 23: a code must not be guessable (>= 40 bits), yet easy to read aloud and type on a phone.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const FORMAT = /^CalleLunaCats-([0-9A-HJKMNP-TV-Z]{4})-([0-9A-HJKMNP-TV-Z]{4})$/;

describe('join codes: 40 random bits, forgiving to type', () => {
  it('generates Name-XXXX-XXXX from Crockford base32: 2,000 codes of one name all differ, every letter used', () => {
    const codes = Array.from({ length: 2000 }, () => generateCode('Calle Luna Cats'));
    expect(codes.filter((c) => !FORMAT.test(c))).toEqual([]);
    expect(new Set(codes.map((c) => c.toLowerCase())).size).toBe(2000);
    const used = new Set(codes.flatMap((c) => [...c.slice('CalleLunaCats-'.length).replace('-', '')]));
    expect([...used].sort().join('')).toBe(CROCKFORD);
    // 8 characters of a 32-letter alphabet: 40 bits.
    expect(8 * Math.log2(CROCKFORD.length)).toBeGreaterThanOrEqual(40);
  });

  describe('over the API', () => {
    let t: TestApp;
    let owner: CreatedUser;
    beforeAll(async () => {
      t = await buildTestApp();
      owner = await createUser(t.db);
    });
    afterAll(async () => t?.close());

    const join = async (user: { id: string }, submitData: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/groups/joinGroup',
        headers: await authHeader(t.app, user.id),
        payload: { submitData },
      });
      return { status: res.statusCode, body: res.json() as { message: string } };
    };

    const createGroup = async (name: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/groups/createGroup',
        headers: await authHeader(t.app, owner.id),
        payload: { submitData: name },
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as CreateGroupResponse).group;
    };

    it('a new group and a regenerated code have the new format, in the message too', async () => {
      const group = await createGroup('Calle Luna Cats');
      expect(group.code).toMatch(FORMAT);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/groups/${group._id}/code`,
        headers: await authHeader(t.app, owner.id),
      });
      expect((res.json() as { code: string }).code).toMatch(FORMAT);
    });

    it('joins with the code in lower case, with spaces or no dashes, with O for 0 and I or L for 1', async () => {
      const group = await createGroup('Calle Luna Cats');
      const [, first, second] = FORMAT.exec(group.code)!;
      const secret = `${first}${second}`;
      // The same secret with each 0 typed as O and each 1 as l (when it has any), to show the forgiveness.
      const misread = secret.replaceAll('0', 'O').replaceAll('1', 'l');
      const typings = [
        group.code.toLowerCase(),
        `  calle luna cats ${first!.toLowerCase()} ${second!.toLowerCase()}  `,
        `CalleLunaCats${secret}`,
        `CALLE LUNA CATS – ${first} – ${second}`,
        `callelunacats-${misread.slice(0, 4)}-${misread.slice(4)}`,
      ];
      for (const typed of typings) {
        const user = await createUser(t.db);
        expect({ typed, ...(await join(user, typed)) }).toEqual({
          typed,
          status: 200,
          body: { message: GROUP_MESSAGES.requestSent },
        });
      }
      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/groups/${group._id}`,
        headers: await authHeader(t.app, owner.id),
      });
      expect((detail.json() as GroupDetail).pendingRequests).toHaveLength(typings.length);
    });

    it('O for 0 and I or L for 1 are accepted in the secret part', async () => {
      await t.db.insert(groups).values({ name: 'Ambiguous', code: 'Ambiguous-0011-AB10', ownerId: owner.id });
      const user = await createUser(t.db);
      expect(await join(user, 'ambiguous oO Il abIO')).toEqual({
        status: 200,
        body: { message: GROUP_MESSAGES.requestSent },
      });
    });

    it('the name part must still be right, and a wrong secret finds nothing', async () => {
      const group = await createGroup('Calle Luna Cats');
      const [, first, second] = FORMAT.exec(group.code)!;
      const other = CROCKFORD[(CROCKFORD.indexOf(second![3]!) + 1) % 32];
      const user = await createUser(t.db);
      for (const typed of [
        `CalleSolCats-${first}-${second}`,
        `CalleLunaCats-${first}-${second!.slice(0, 3)}${other}`,
      ]) {
        expect(await join(user, typed)).toEqual({
          status: 400,
          body: { message: GROUP_MESSAGES.codeNotFound },
        });
      }
    });

    it('an old-format code (London#1234) still works until the owner regenerates it', async () => {
      await t.db.insert(groups).values({ name: 'London', code: 'London#1234', ownerId: owner.id });
      const user = await createUser(t.db);
      expect(await join(user, ' london#1234 ')).toEqual({
        status: 200,
        body: { message: GROUP_MESSAGES.requestSent },
      });
    });
  });
});
