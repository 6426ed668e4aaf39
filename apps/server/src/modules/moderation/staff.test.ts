import {
  DEMO_USER_ID,
  MODERATION_MESSAGES,
  MODERATION_QUEUE_MESSAGES,
  type MyProfileResponse,
  type StaffListResponse,
} from '@cats/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser, type CreatedUser } from '../../../test/factories.ts';
import { main } from './admin-cli.ts';

describe('staff: roles, the team list and the admin command line', () => {
  let t: TestApp;
  let admin: CreatedUser;
  let moderator: CreatedUser;
  let member: CreatedUser;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t.db, { role: 'admin', username: `a_admin_${Date.now().toString(36)}` });
    moderator = await createUser(t.db, { role: 'moderator' });
    member = await createUser(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = async (userId: string | null, method: 'GET' | 'PUT', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: userId ? await authHeader(t.app, userId) : {},
      ...(payload ? { payload } : {}),
    });
  const roleOf = async (userId: string) =>
    (await t.db.select({ role: users.role }).from(users).where(eq(users.id, userId)))[0]?.role;

  describe('GET /api/profile/getMyProfile', () => {
    it("answers the caller's role, so that the web shows the Moderation link to staff only", async () => {
      for (const [who, role] of [
        [admin, 'admin'],
        [moderator, 'moderator'],
        [member, 'member'],
      ] as const) {
        const res = await as(who.id, 'GET', '/api/profile/getMyProfile');
        expect((res.json() as MyProfileResponse).role).toBe(role);
      }
      const demo = await as(DEMO_USER_ID, 'GET', '/api/profile/getMyProfile');
      expect((demo.json() as MyProfileResponse).role).toBe('member');
    });
  });

  describe('GET /api/moderation/staff', () => {
    it('lists admins first, then moderators, for moderators and admins', async () => {
      for (const who of [moderator.id, admin.id]) {
        const res = await as(who, 'GET', '/api/moderation/staff');
        expect(res.statusCode).toBe(200);
        const { staff } = res.json() as StaffListResponse;
        const admins = staff.filter((s) => s.role === 'admin');
        expect(staff.slice(0, admins.length)).toEqual(admins);
        expect(staff).toContainEqual({ _id: admin.id, username: admin.username, role: 'admin' });
        expect(staff).toContainEqual({ _id: moderator.id, username: moderator.username, role: 'moderator' });
        expect(staff.map((s) => s._id)).not.toContain(member.id);
      }
    });

    it('refuses anonymous (401), members and the demo account (403)', async () => {
      expect((await as(null, 'GET', '/api/moderation/staff')).statusCode).toBe(401);
      for (const who of [member.id, DEMO_USER_ID]) {
        const res = await as(who, 'GET', '/api/moderation/staff');
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: MODERATION_MESSAGES.notModerator });
      }
    });
  });

  describe('PUT /api/moderation/staff/{user}', () => {
    it('an admin makes a member a moderator (by id or username) and a member again', async () => {
      const someone = await createUser(t.db);
      const byId = await as(admin.id, 'PUT', `/api/moderation/staff/${someone.id}`, { role: 'moderator' });
      expect(byId.statusCode, byId.body).toBe(200);
      expect(byId.json()).toEqual({
        member: { _id: someone.id, username: someone.username, role: 'moderator' },
      });
      expect(await roleOf(someone.id)).toBe('moderator');
      // The new moderator sees the queue at once.
      expect((await as(someone.id, 'GET', '/api/moderation/reports')).statusCode).toBe(200);

      const byName = await as(admin.id, 'PUT', `/api/moderation/staff/${someone.username.toUpperCase()}`, {
        role: 'member',
      });
      expect(byName.statusCode, byName.body).toBe(200);
      expect(await roleOf(someone.id)).toBe('member');
      expect((await as(someone.id, 'GET', '/api/moderation/reports')).statusCode).toBe(403);
    });

    it('refuses moderators, members, the demo account and anonymous, and changes nothing', async () => {
      const someone = await createUser(t.db);
      expect(
        (await as(null, 'PUT', `/api/moderation/staff/${someone.id}`, { role: 'moderator' })).statusCode,
      ).toBe(401);
      for (const who of [moderator.id, member.id, DEMO_USER_ID]) {
        const res = await as(who, 'PUT', `/api/moderation/staff/${someone.id}`, { role: 'moderator' });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: MODERATION_MESSAGES.notAdmin });
      }
      expect(await roleOf(someone.id)).toBe('member');
    });

    it("refuses an admin's role, one's own, an unknown user and an unknown role, with clear messages", async () => {
      const other = await createUser(t.db, { role: 'admin' });
      const onAdmin = await as(admin.id, 'PUT', `/api/moderation/staff/${other.id}`, { role: 'member' });
      expect(onAdmin.statusCode).toBe(409);
      expect(onAdmin.json()).toEqual({ message: MODERATION_QUEUE_MESSAGES.cannotChangeAdmin });
      expect(await roleOf(other.id)).toBe('admin');

      const self = await as(admin.id, 'PUT', `/api/moderation/staff/${admin.id}`, { role: 'moderator' });
      expect(self.statusCode).toBe(403);
      expect(self.json()).toEqual({ message: MODERATION_QUEUE_MESSAGES.cannotChangeSelf });
      expect(await roleOf(admin.id)).toBe('admin');

      const unknown = await as(admin.id, 'PUT', '/api/moderation/staff/nobody_here_at_all', {
        role: 'moderator',
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: MODERATION_QUEUE_MESSAGES.userNotFound });

      const toAdmin = await as(admin.id, 'PUT', `/api/moderation/staff/${member.id}`, { role: 'admin' });
      expect(toAdmin.statusCode).toBe(400);
      expect(toAdmin.json()).toEqual({ message: MODERATION_QUEUE_MESSAGES.roleInvalid });
      expect(await roleOf(member.id)).toBe('member');
    });
  });

  describe('npm run admin (main of admin-cli.ts)', () => {
    const run = async (...args: string[]) => {
      const lines: string[] = [];
      const code = await main(args, { database: t.database, print: (text) => lines.push(text) });
      return { code, output: lines.join('\n') };
    };

    it('grants admin and moderator by email (any case), revokes, and says what it did', async () => {
      const someone = await createUser(t.db);
      const granted = await run('grant', 'admin', someone.email.toUpperCase());
      expect(granted).toEqual({
        code: 0,
        output: `${someone.username} (${someone.email}) is now an admin (was a member).`,
      });
      expect(await roleOf(someone.id)).toBe('admin');
      // The new admin can grant moderators in the web at once.
      const web = await as(someone.id, 'PUT', `/api/moderation/staff/${member.id}`, { role: 'moderator' });
      expect(web.statusCode).toBe(200);
      await as(someone.id, 'PUT', `/api/moderation/staff/${member.id}`, { role: 'member' });

      expect(await run('grant', 'admin', someone.email)).toEqual({
        code: 0,
        output: `${someone.username} (${someone.email}) is already an admin; nothing changed.`,
      });
      expect((await run('grant', 'moderator', someone.email)).output).toBe(
        `${someone.username} (${someone.email}) is now a moderator (was an admin).`,
      );
      expect(await roleOf(someone.id)).toBe('moderator');
      expect((await run('revoke', someone.email)).output).toBe(
        `${someone.username} (${someone.email}) is now a member (was a moderator).`,
      );
      expect(await roleOf(someone.id)).toBe('member');
    });

    // On PostgreSQL the command line also opens the database itself from DATABASE_URL, as `npm run admin`.
    it.skipIf(!process.env.TEST_DATABASE_URL)('opens the configured database (DATABASE_URL)', async () => {
      const someone = await createUser(t.db);
      const lines: string[] = [];
      const code = await main(['grant', 'moderator', someone.email], {
        env: { DATABASE_URL: t.databaseUrl!, DATA_DIR: t.config.DATA_DIR },
        print: (text) => lines.push(text),
      });
      expect(code).toBe(0);
      expect(lines).toEqual([`${someone.username} (${someone.email}) is now a moderator (was a member).`]);
      expect(await roleOf(someone.id)).toBe('moderator');
    });

    it('lists the staff', async () => {
      const { code, output } = await run('list');
      expect(code).toBe(0);
      expect(output).toContain(`admin\t${admin.username}\t${admin.email}`);
      expect(output).toContain(`moderator\t${moderator.username}\t${moderator.email}`);
      expect(output).not.toContain(member.email);
    });

    it('refuses an unknown email, an unknown command and a wrong role, changing nothing', async () => {
      expect(await run('grant', 'admin', 'nobody@example.com')).toEqual({
        code: 1,
        output: 'There is no account with the email nobody@example.com.',
      });
      const unknown = await run('promote', member.email);
      expect(unknown.code).toBe(2);
      expect(unknown.output).toMatch(/^Unknown command: promote\.\nUsage:/);
      const none = await run();
      expect(none.code).toBe(2);
      expect(none.output).toMatch(/^No command given\.\nUsage:/);
      const wrongRole = await run('grant', 'owner', member.email);
      expect(wrongRole.code).toBe(2);
      expect(wrongRole.output).toMatch(/^Grant which role to whom\?/);
      const noEmail = await run('revoke');
      expect(noEmail.code).toBe(2);
      expect(await roleOf(member.id)).toBe('member');
    });
  });
});
