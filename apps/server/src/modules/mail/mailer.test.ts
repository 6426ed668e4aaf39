import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { createUser } from '../../../test/factories.ts';
import { linkIn } from '../../../test/smtp-inbox.ts';
import { createMailer, linkOrigin, outboxDir } from './mailer.ts';
import { escapeHtml, passwordResetMail } from './mail-templates.ts';

/** A pino logger whose lines the test reads. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

describe('the outbox (no SMTP_URL)', () => {
  it('writes each mail as a readable .eml file and logs its links', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cats-outbox-'));
    try {
      const { log, lines } = capturingLogger();
      const mailer = createMailer(
        { DATA_DIR: dataDir, MAIL_FROM: 'Cats <cats@example.org>', SMTP_URL: undefined },
        log,
      );
      expect(mailer.kind).toBe('outbox');
      const link = 'http://localhost:3000/reset-password#token=' + 'a'.repeat(43);
      await mailer.send(passwordResetMail('en', { to: 'luna@example.com', username: 'luna', link }));
      const files = readdirSync(outboxDir({ DATA_DIR: dataDir }));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const path = join(outboxDir({ DATA_DIR: dataDir }), files[0]!);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const parsed = await simpleParser(readFileSync(path));
      expect(parsed.subject).toBe('Choose a new password for Neighbourhood Cats');
      expect(parsed.from?.value).toEqual([{ name: 'Cats', address: 'cats@example.org' }]);
      expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe('luna@example.com');
      expect(linkIn(parsed).url).toBe(link);
      expect(parsed.html).toContain(`href="${link}"`);
      const logged = lines.find(
        (l) => l.msg === 'mail written to the outbox (no SMTP_URL); its links are logged here',
      );
      expect(logged).toMatchObject({ level: 30, to: 'luna@example.com', file: path, links: [link] });
      mailer.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('builds links from PUBLIC_URL, else from localhost and the port', () => {
    expect(linkOrigin({ PUBLIC_URL: 'https://cats.example/', PORT: 3000 })).toBe('https://cats.example');
    expect(linkOrigin({ PUBLIC_URL: undefined, PORT: 8080 })).toBe('http://localhost:8080');
  });
});

describe('mail templates', () => {
  it('escapes HTML and keeps the plain text as it is', () => {
    expect(escapeHtml(`<b>"Tom" & 'Jerry'</b>`)).toBe(
      '&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;',
    );
    const mail = passwordResetMail('en', {
      to: '<i>x</i>@example.com',
      username: 'a<script>',
      link: 'https://cats.example/reset-password#token=x&y"z',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('a&lt;script&gt;');
    expect(mail.html).toContain('href="https://cats.example/reset-password#token=x&amp;y&quot;z"');
    expect(mail.text).toContain('Hello a<script>,');
  });
});

describe('the app without SMTP_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  it('puts the reset mail in DATA_DIR/outbox, and its link works', async () => {
    const user = await createUser(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/password/forgot',
      payload: { email: user.email },
    });
    expect(res.statusCode).toBe(202);
    await t.app.mail.settled();
    const dir = outboxDir(t.config);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const parsed = await simpleParser(readFileSync(join(dir, files[0]!)));
    const { url, token } = linkIn(parsed);
    expect(url.startsWith(`http://localhost:${t.config.PORT}/reset-password#token=`)).toBe(true);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/password/reset',
      payload: { token, password: 'FromOutbox1' },
    });
    expect(reset.statusCode).toBe(200);
  });
});
