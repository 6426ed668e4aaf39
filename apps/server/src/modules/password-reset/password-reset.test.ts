import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACCOUNT_MAIL_MESSAGES,
  DEMO_EMAIL,
  DEMO_PASSWORD,
  MAIL_LIMITS,
  PASSWORD_HINT,
  PASSWORD_RESET_TTL_MINUTES,
} from '@cats/contracts';
import { buildTestApp, secondInstance, type TestApp } from '../../../test/build-app.ts';
import { createUser, type CreatedUser } from '../../../test/factories.ts';
import { linkIn, startSmtpInbox, type SmtpInbox } from '../../../test/smtp-inbox.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';
import { rowsOf } from '../../db/raw-results.ts';
import { users } from '../../db/schema/index.ts';
import { hashMailToken } from '../mail/mail-tokens.service.ts';

/** Issue 29: 'Forgot password?' through a real SMTP server, following the link in the mail. */
describe('password reset by email', () => {
  let t: TestApp;
  let inbox: SmtpInbox;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    t = await buildTestApp({ ...NO_RATE_LIMITS, SMTP_URL: inbox.url, PUBLIC_URL: 'https://cats.example' });
  });
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });
  beforeEach(async () => {
    // Each test starts with no mail sent this hour (the throttle counts across tests otherwise).
    await t.db.execute(sql`delete from mail_sends`);
  });

  const forgot = (email: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email }, headers });
  const reset = (token: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/password/reset', payload: { token, password } });
  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  /** The refresh cookie (its name is __Host-jwt behind an https PUBLIC_URL), ready for inject's cookies. */
  const refreshCookie = (res: { cookies: { name: string; value: string }[] }) => {
    const c = res.cookies.find((x) => x.name.endsWith('jwt') && x.value !== '');
    return c ? { [c.name]: c.value } : undefined;
  };

  /** Asks for a link and returns the token of the mail that arrived for the user. */
  async function mailedToken(user: CreatedUser, headers: Record<string, string> = {}) {
    const before = inbox.to(user.email).length;
    const res = await forgot(user.email, headers);
    expect(res.statusCode).toBe(202);
    await t.app.mail.settled();
    const mails = inbox.to(user.email);
    expect(mails.length).toBe(before + 1);
    return { mail: mails.at(-1)!, ...linkIn(mails.at(-1)!) };
  }

  it('answers an existing, an unknown and the demo address alike, and mails only the existing one', async () => {
    const user = await createUser(t.db);
    const answers = [];
    for (const email of [user.email, 'nobody-here@example.com', DEMO_EMAIL, user.email.toUpperCase()]) {
      const res = await forgot(email);
      answers.push({
        status: res.statusCode,
        body: res.body,
        type: res.headers['content-type'],
        cache: res.headers['cache-control'],
        cookies: res.cookies.length,
      });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 202, cookies: 0 });
    expect(JSON.parse(answers[0]!.body)).toEqual({ message: ACCOUNT_MAIL_MESSAGES.forgotPasswordSent });
    await t.app.mail.settled();
    expect(inbox.to(user.email)).toHaveLength(2);
    expect(inbox.to('nobody-here@example.com')).toHaveLength(0);
    expect(inbox.to(DEMO_EMAIL)).toHaveLength(0);
    const mail = inbox.to(user.email)[0]!;
    expect(mail.subject).toBe('Choose a new password for Neighbourhood Cats');
    expect(mail.from?.value).toEqual([{ name: 'Neighbourhood Cats', address: 'no-reply@localhost' }]);
    // Built from PUBLIC_URL, the token in the fragment; both a text and an HTML body.
    expect(linkIn(mail).url).toMatch(/^https:\/\/cats\.example\/reset-password#token=[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain(`${PASSWORD_RESET_TTL_MINUTES} minutes`);
    expect(mail.html).toContain(`href="${linkIn(mail).url}"`);
    // Only the hash is stored.
    const rows = await t.db.execute(sql`select token_hash from account_tokens where user_id = ${user.id}`);
    const hashes = rowsOf(rows) as { token_hash: string }[];
    expect(hashes.map((r) => r.token_hash)).toContain(hashMailToken(linkIn(mail).token));
    expect(JSON.stringify(hashes)).not.toContain(linkIn(mail).token);
  });

  it('builds links from PUBLIC_URL whatever Host the request names', async () => {
    const user = await createUser(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/password/forgot',
      payload: { email: user.email },
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(res.statusCode).toBe(202);
    await t.app.mail.settled();
    const mail = inbox.to(user.email).at(-1)!;
    expect(mail.text).not.toContain('evil.example');
    expect(linkIn(mail).url.startsWith('https://cats.example/')).toBe(true);
  });

  it('writes the mail in Spanish for a Spanish request', async () => {
    const user = await createUser(t.db);
    const { mail } = await mailedToken(user, { 'accept-language': 'es-ES,es;q=0.9' });
    expect(mail.subject).toBe('Elige una contraseña nueva para Neighbourhood Cats');
    expect(mail.text).toContain('30 minutos');
    expect(mail.html).toContain('lang="es"');
  });

  it('sets the password once, ends every session and signs in', async () => {
    const user = await createUser(t.db);
    const first = refreshCookie(await login(user.email, user.password));
    const second = refreshCookie(await login(user.email, user.password));
    expect(first && second).toBeTruthy();
    const { token } = await mailedToken(user);

    const done = await reset(token, 'NewWhiskers42');
    expect(done.statusCode).toBe(200);
    const body = done.json() as { accessToken: string; userId: string };
    expect(body.userId).toBe(user.id);
    expect(body.accessToken).toEqual(expect.any(String));
    const cookie = refreshCookie(done);
    expect(cookie).toBeTruthy();
    // Signed in: the access token works and the refresh cookie is live.
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/profile/getMyProfile',
      headers: { authorization: `Bearer ${body.accessToken}` },
    });
    expect(me.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/refresh', cookies: cookie! })).statusCode).toBe(
      200,
    );
    // Every earlier session ended.
    for (const old of [first!, second!]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/refresh', cookies: old });
      expect(res.statusCode).toBe(403);
    }
    // The new password works, the old one no more.
    expect((await login(user.email, 'NewWhiskers42')).statusCode).toBe(200);
    expect((await login(user.email, user.password)).statusCode).toBe(401);

    // A second use of the link is refused and changes nothing.
    const again = await reset(token, 'Another123');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: ACCOUNT_MAIL_MESSAGES.invalidLink });
    expect((await login(user.email, 'NewWhiskers42')).statusCode).toBe(200);
  });

  it('ends every access token signed before the reset at once, on every instance; the new one works', async () => {
    const { app: other, close: closeOther } = await secondInstance(t);
    try {
      const user = await createUser(t.db);
      const stolen = (await login(user.email, user.password)).json<{ accessToken: string }>().accessToken;
      const privacy = (app: typeof other, token: string) =>
        app.inject({
          method: 'PUT',
          url: '/api/profile/settings/location-privacy',
          headers: { authorization: `Bearer ${token}` },
          payload: { exactPublicLocation: false },
        });
      // Both instances have just seen the account (kept LIVE_USER_TTL_MS), as a thief's would.
      expect((await privacy(t.app, stolen)).statusCode).toBe(200);
      expect((await privacy(other, stolen)).statusCode).toBe(200);
      const { token } = await mailedToken(user);
      const sameSecond = await t.app.accessTokens.sign(user.id, { signedInAt: new Date() });
      const heard = vi.spyOn(other.liveUsers, 'forget');
      try {
        const done = await reset(token, 'NewWhiskers42');
        expect(done.statusCode).toBe(200);
        // The other instance hears of it from the database when the reset commits.
        await vi.waitFor(() => expect(heard).toHaveBeenCalledWith(user.id), { timeout: 5_000 });
      } finally {
        heard.mockRestore();
      }
      for (const app of [t.app, other]) {
        for (const old of [stolen, sameSecond]) {
          const res = await privacy(app, old);
          expect(res.statusCode).toBe(403);
          expect(res.headers['www-authenticate']).toContain('invalid_token');
        }
        const gone = await app.inject({
          method: 'DELETE',
          url: `/api/profile/deleteUser/${user.id}`,
          headers: { authorization: `Bearer ${stolen}` },
        });
        expect(gone.statusCode).toBe(403);
      }
      // The session the reset opened works everywhere, and so does a login right after it.
      const fresh = (await login(user.email, 'NewWhiskers42')).json<{ accessToken: string }>().accessToken;
      for (const app of [t.app, other]) expect((await privacy(app, fresh)).statusCode).toBe(200);
      expect(await t.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(1);
    } finally {
      await closeOther();
    }
  });

  it('refuses a suspended account and changes nothing; the link works once the suspension ends', async () => {
    const user = await createUser(t.db);
    const { token } = await mailedToken(user);
    await t.db
      .update(users)
      .set({ suspendedAt: new Date(), suspendedUntil: null })
      .where(eq(users.id, user.id));
    const refused = await reset(token, 'NewWhiskers42');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Your account is suspended.' });
    expect(refreshCookie(refused)).toBeUndefined();
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toBe(user.passwordHash);
    expect(row!.sessionGeneration).toBe(0);
    // Lifted: the old password still works, and the link (not used up by the refusal) too.
    await t.db.update(users).set({ suspendedAt: null }).where(eq(users.id, user.id));
    expect((await login(user.email, user.password)).statusCode).toBe(200);
    expect((await reset(token, 'NewWhiskers42')).statusCode).toBe(200);
    expect((await login(user.email, 'NewWhiskers42')).statusCode).toBe(200);
  });

  it('takes a link once when two uses race', async () => {
    const user = await createUser(t.db);
    const { token } = await mailedToken(user);
    const results = await Promise.all([reset(token, 'RaceWinner1'), reset(token, 'RaceWinner2')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('refuses an expired link, an unknown one and a malformed one', async () => {
    const user = await createUser(t.db);
    const { token } = await mailedToken(user);
    await t.db.execute(
      sql`update account_tokens set expires_at = now() - interval '1 second' where token_hash = ${hashMailToken(token)}`,
    );
    for (const bad of [token, 'A'.repeat(43), 'not-a-token', '']) {
      const res = await reset(bad, 'NewWhiskers42');
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ message: ACCOUNT_MAIL_MESSAGES.invalidLink });
    }
    expect((await login(user.email, user.password)).statusCode).toBe(200);
    const es = await t.app.inject({
      method: 'POST',
      url: '/api/password/reset',
      payload: { token, password: 'NewWhiskers42' },
      headers: { 'accept-language': 'es' },
    });
    expect(es.json()).toEqual({
      message: 'Este enlace no es válido, ha caducado o ya se ha usado. Pide uno nuevo.',
    });
  });

  it('makes older links useless once a newer one is sent', async () => {
    const user = await createUser(t.db);
    const older = await mailedToken(user);
    const newer = await mailedToken(user);
    expect((await reset(older.token, 'NewWhiskers42')).statusCode).toBe(400);
    expect((await reset(newer.token, 'NewWhiskers42')).statusCode).toBe(200);
  });

  it("enforces sign-up's password rules with sign-up's message, and keeps the link usable", async () => {
    const user = await createUser(t.db);
    const { token } = await mailedToken(user);
    for (const weak of ['short1A', 'alllowercase1', 'NoDigitsHere', 'x'.repeat(30) + 'A1']) {
      const res = await reset(token, weak);
      expect(res.statusCode, weak).toBe(400);
      expect(res.json()).toEqual({ message: PASSWORD_HINT });
    }
    const es = await t.app.inject({
      method: 'POST',
      url: '/api/password/reset',
      payload: { token, password: 'weak' },
      headers: { 'accept-language': 'es' },
    });
    expect(es.json()).toEqual({ message: 'Comprueba que tu contraseña es válida' });
    expect((await reset(token, 'GoodEnough9')).statusCode).toBe(200);
  });

  it('clears the login throttle of the account', async () => {
    const user = await createUser(t.db);
    let locked = await login(user.email, 'Wrong12345');
    for (let i = 0; i < 10 && locked.statusCode !== 429; i++) locked = await login(user.email, 'Wrong12345');
    expect(locked.statusCode).toBe(429);
    const { token } = await mailedToken(user);
    expect((await reset(token, 'Unlocked123')).statusCode).toBe(200);
    expect((await login(user.email, 'Unlocked123')).statusCode).toBe(200);
  });

  it('sends at most 3 mails per address an hour; further requests still answer 202', async () => {
    const user = await createUser(t.db);
    const before = inbox.to(user.email).length;
    for (let i = 0; i < MAIL_LIMITS.perAddressPerHour + 2; i++) {
      const res = await forgot(user.email);
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ message: ACCOUNT_MAIL_MESSAGES.forgotPasswordSent });
    }
    await t.app.mail.settled();
    expect(inbox.to(user.email).length - before).toBe(MAIL_LIMITS.perAddressPerHour);
    // The last link sent still works: throttled requests made no new token.
    const last = linkIn(inbox.to(user.email).at(-1)!);
    expect((await reset(last.token, 'StillWorks1')).statusCode).toBe(200);
  });

  it('counts mails per account too: email-change links and resets share the allowance', async () => {
    const password = 'Account123';
    const user = await createUser(t.db, { password });
    const { authorization } = {
      authorization: `Bearer ${(await login(user.email, password)).json().accessToken as string}`,
    };
    const changes = MAIL_LIMITS.perAccountPerHour - 1;
    for (let i = 0; i < changes; i++) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/settings/email',
        headers: { authorization },
        payload: { email: `moving_${i}_${user.id.slice(0, 8)}@example.com`, currentPassword: password },
      });
      expect(res.statusCode, res.body).toBe(202);
    }
    // One more mail is allowed for the account (its own address has had none yet)...
    await mailedToken(user);
    // ...and then none, although the address itself is under its limit.
    const res = await forgot(user.email);
    expect(res.statusCode).toBe(202);
    await t.app.mail.settled();
    expect(inbox.to(user.email)).toHaveLength(1);
  });

  it('shares the throttle between two instances of the app on the same database', async () => {
    // PostgreSQL: its own pool; PGlite: the same database in this process.
    const { app: other, close: closeOther } = await secondInstance(t);
    try {
      const user = await createUser(t.db);
      const ask = (app: typeof other) =>
        app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: user.email } });
      // Three requests at once on each instance.
      const answers = await Promise.all([...Array(3).keys()].flatMap(() => [ask(t.app), ask(other)]));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(202));
      await Promise.all([t.app.mail.settled(), other.mail.settled()]);
      expect(inbox.to(user.email)).toHaveLength(MAIL_LIMITS.perAddressPerHour);
    } finally {
      await closeOther();
    }
  });

  it('never mails the demo account and leaves its password alone', async () => {
    for (let i = 0; i < 2; i++) expect((await forgot(DEMO_EMAIL)).statusCode).toBe(202);
    await t.app.mail.settled();
    expect(inbox.to(DEMO_EMAIL)).toHaveLength(0);
    const rows = await t.db.execute(
      sql`select count(*)::int as n from account_tokens t join users u on u.id = t.user_id where lower(u.email) = lower(${DEMO_EMAIL})`,
    );
    expect((rowsOf(rows) as { n: number }[])[0]!.n).toBe(0);
    expect((await login(DEMO_EMAIL, DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a malformed address with the sign-up hint, and a missing body', async () => {
    const res = await forgot('not-an-address');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Please check you have entered your email correctly.' });
    const none = await t.app.inject({ method: 'POST', url: '/api/password/forgot' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toHaveProperty('message');
  });

  it('deletes the tokens with the account', async () => {
    const user = await createUser(t.db);
    await mailedToken(user);
    await t.db.execute(sql`delete from users where id = ${user.id}`);
    const rows = await t.db.execute(
      sql`select count(*)::int as n from account_tokens where user_id = ${user.id}`,
    );
    expect((rowsOf(rows) as { n: number }[])[0]!.n).toBe(0);
  });
});

describe('password reset: per-IP limit and a mail server that fails', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 9: every send fails.
    t = await buildTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '3', SMTP_URL: 'smtp://127.0.0.1:9' });
  });
  afterAll(() => t?.close());

  it('answers 202 while the mail fails afterwards, then 429 past the per-IP limit', async () => {
    const user = await createUser(t.db);
    const codes = [];
    for (let i = 0; i < 4; i++)
      codes.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/password/forgot',
            payload: { email: user.email },
          })
        ).statusCode,
      );
    expect(codes).toEqual([202, 202, 202, 429]);
    await t.app.mail.settled();
    const limited = await t.app.inject({
      method: 'POST',
      url: '/api/password/reset',
      payload: { token: 'A'.repeat(43), password: 'NewWhiskers42' },
    });
    expect(limited.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
