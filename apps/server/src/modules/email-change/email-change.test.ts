import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ACCOUNT_MAIL_MESSAGES,
  AUTH_MESSAGES,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  MAIL_LIMITS,
  emailChangedMessage,
  emailChangeRequestedMessage,
} from '@cats/contracts';
import { buildTestApp, uniqueSuffix, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';
import { linkIn, startSmtpInbox, type SmtpInbox } from '../../../test/smtp-inbox.ts';
import { rowsOf } from '../../db/raw-results.ts';
import { hashMailToken } from '../mail/mail-tokens.service.ts';

/** Issue 29: an email change is confirmed from the new address; the old one is told. */
describe('email change by confirmation link', () => {
  let t: TestApp;
  let inbox: SmtpInbox;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    t = await buildTestApp({ ...NO_RATE_LIMITS, SMTP_URL: inbox.url });
  });
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });
  beforeEach(async () => {
    await t.db.execute(sql`delete from mail_sends`);
  });

  const fresh = () => `new_${uniqueSuffix()}@example.com`;
  async function requestChange(user: CreatedUser, email: string, headers: Record<string, string> = {}) {
    return t.app.inject({
      method: 'PUT',
      url: '/api/profile/settings/email',
      headers: { ...(await authHeader(t.app, user.id)), ...headers },
      payload: { email, currentPassword: user.password },
    });
  }
  const confirm = (token: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/email/confirm', payload: { token }, headers });
  async function emailOf(userId: string): Promise<string> {
    const rows = await t.db.execute(sql`select email from users where id = ${userId}`);
    return (rowsOf(rows) as { email: string }[])[0]!.email;
  }
  async function linkTo(address: string) {
    await t.app.mail.settled();
    const mail = inbox.to(address).at(-1);
    expect(mail, `a mail to ${address}`).toBeDefined();
    return { mail: mail!, ...linkIn(mail!) };
  }

  it('changes nothing until the link sent to the new address is followed; then tells the old address', async () => {
    const user = await createUser(t.db);
    const next = fresh();
    const res = await requestChange(user, next);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: emailChangeRequestedMessage(next), pendingEmail: next });
    expect(res.json().message).toBe(`We sent a link to ${next}. Your email changes when you follow it.`);
    expect(await emailOf(user.id)).toBe(user.email);
    // The old address still logs in; the new one does not yet.
    const login = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: user.password } });
    expect((await login(user.email)).statusCode).toBe(200);
    expect((await login(next)).statusCode).toBe(401);

    const { mail, token, path } = await linkTo(next);
    expect(path).toBe('/confirm-email');
    expect(mail.subject).toBe('Confirm your new email address');
    expect(mail.text).toContain(next);
    expect(inbox.to(user.email)).toHaveLength(0);

    const done = await confirm(token);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: emailChangedMessage(next), email: next, userId: user.id });
    expect(await emailOf(user.id)).toBe(next);
    expect((await login(next)).statusCode).toBe(200);
    expect((await login(user.email)).statusCode).toBe(401);

    // The old address is told, without a link.
    await t.app.mail.settled();
    const notice = inbox.to(user.email);
    expect(notice).toHaveLength(1);
    expect(notice[0]!.subject).toBe('The email address of your account was changed');
    expect(notice[0]!.text).toContain(next);
    expect(notice[0]!.text).toContain('If this was not you');
    expect(notice[0]!.text).not.toMatch(/#token=/);

    // A second use is refused and changes nothing.
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: ACCOUNT_MAIL_MESSAGES.invalidLink });
    expect(await emailOf(user.id)).toBe(next);
  });

  it('refuses a suspended account (403) and changes nothing; the link works once the suspension ends', async () => {
    const user = await createUser(t.db);
    const next = fresh();
    expect((await requestChange(user, next)).statusCode).toBe(202);
    const { token } = await linkTo(next);
    await t.db.execute(sql`update users set suspended_at = now() where id = ${user.id}`);
    const refused = await confirm(token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Your account is suspended.' });
    expect(await emailOf(user.id)).toBe(user.email);
    await t.app.mail.settled();
    expect(inbox.to(user.email)).toHaveLength(0);
    await t.db.execute(sql`update users set suspended_at = null where id = ${user.id}`);
    expect((await confirm(token)).statusCode).toBe(200);
    expect(await emailOf(user.id)).toBe(next);
  });

  it('answers 409 when the address was taken meanwhile, and changes nothing', async () => {
    const user = await createUser(t.db);
    const next = fresh();
    expect((await requestChange(user, next)).statusCode).toBe(202);
    const { token } = await linkTo(next);
    await createUser(t.db, { email: next.toUpperCase() });
    const res = await confirm(token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: AUTH_MESSAGES.emailTaken });
    expect(await emailOf(user.id)).toBe(user.email);
    const es = await confirm(token, { 'accept-language': 'es' });
    expect(es.json()).toEqual({ message: 'Ese correo electrónico ya está registrado' });
  });

  it('refuses an address already registered at request time, and a wrong current password', async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const taken = await requestChange(user, other.email);
    expect(taken.statusCode).toBe(409);
    const wrong = await t.app.inject({
      method: 'PUT',
      url: '/api/profile/settings/email',
      headers: await authHeader(t.app, user.id),
      payload: { email: fresh(), currentPassword: 'Wrong12345' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: AUTH_MESSAGES.currentPasswordIncorrect });
    await t.app.mail.settled();
    const rows = await t.db.execute(
      sql`select count(*)::int as n from account_tokens where user_id = ${user.id}`,
    );
    expect((rowsOf(rows) as { n: number }[])[0]!.n).toBe(0);
  });

  it('refuses an expired link and a link made useless by a newer request', async () => {
    const user = await createUser(t.db);
    const first = fresh();
    const second = fresh();
    expect((await requestChange(user, first)).statusCode).toBe(202);
    const older = await linkTo(first);
    expect((await requestChange(user, second)).statusCode).toBe(202);
    const newer = await linkTo(second);
    expect((await confirm(older.token)).statusCode).toBe(400);
    await t.db.execute(
      sql`update account_tokens set expires_at = now() - interval '1 second' where token_hash = ${hashMailToken(newer.token)}`,
    );
    const expired = await confirm(newer.token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ message: ACCOUNT_MAIL_MESSAGES.invalidLink });
    expect(await emailOf(user.id)).toBe(user.email);
  });

  it('does not take a password-reset token as an email-change token, nor the other way round', async () => {
    const user = await createUser(t.db);
    const next = fresh();
    expect((await requestChange(user, next)).statusCode).toBe(202);
    const { token } = await linkTo(next);
    const asReset = await t.app.inject({
      method: 'POST',
      url: '/api/password/reset',
      payload: { token, password: 'NewWhiskers42' },
    });
    expect(asReset.statusCode).toBe(400);
    expect((await confirm(token)).statusCode).toBe(200);
  });

  it('ends links to choose a new password that went to the old address', async () => {
    const user = await createUser(t.db);
    await t.app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: user.email } });
    const reset = await linkTo(user.email);
    const next = fresh();
    expect((await requestChange(user, next)).statusCode).toBe(202);
    expect((await confirm((await linkTo(next)).token)).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/password/reset',
      payload: { token: reset.token, password: 'NewWhiskers42' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('refuses the demo account (403, nothing sent)', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/profile/settings/email',
      headers: await authHeader(t.app, DEMO_USER_ID),
      payload: { email: fresh(), currentPassword: 'DemoCats123' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
    await t.app.mail.settled();
    const rows = await t.db.execute(
      sql`select count(*)::int as n from account_tokens where user_id = ${DEMO_USER_ID}`,
    );
    expect((rowsOf(rows) as { n: number }[])[0]!.n).toBe(0);
  });

  it('throttles per account (429 to the signed-in sender) and per new address across accounts', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < MAIL_LIMITS.perAccountPerHour; i++)
      expect((await requestChange(user, fresh())).statusCode).toBe(202);
    const refused = await requestChange(user, fresh());
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: ACCOUNT_MAIL_MESSAGES.tooManyMails });
    expect(refused.headers['retry-after']).toBeDefined();

    const target = fresh();
    const people = await Promise.all(
      Array.from({ length: MAIL_LIMITS.perAddressPerHour + 1 }, () => createUser(t.db)),
    );
    const codes = [];
    for (const person of people) codes.push((await requestChange(person, target)).statusCode);
    expect(codes).toEqual([...Array(MAIL_LIMITS.perAddressPerHour).fill(202), 429]);
    await t.app.mail.settled();
    expect(inbox.to(target)).toHaveLength(MAIL_LIMITS.perAddressPerHour);
  });

  it('writes the confirmation and the notice in Spanish for a Spanish request', async () => {
    const user = await createUser(t.db);
    const next = fresh();
    expect((await requestChange(user, next, { 'accept-language': 'es' })).statusCode).toBe(202);
    const { mail, token } = await linkTo(next);
    expect(mail.subject).toBe('Confirma tu nueva dirección de correo');
    expect((await confirm(token, { 'accept-language': 'es' })).statusCode).toBe(200);
    const notice = await (async () => {
      await t.app.mail.settled();
      return inbox.to(user.email).at(-1)!;
    })();
    expect(notice.subject).toBe('Se ha cambiado la dirección de correo de tu cuenta');
  });
});
