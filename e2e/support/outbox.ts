import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';

/**
 * The mails a server without SMTP_URL wrote to DATA_DIR/outbox/ (issue 29), parsed. Waits up to
 * `timeoutMs` for one to `to` beyond the first `skip` (mails go out just after the request's answer).
 * `link` is the mail's link with a token, null for a mail without one.
 */
export async function waitForMail(
  dataDir: string,
  to: string,
  opts: { skip?: number; timeoutMs?: number } = {},
): Promise<ParsedMail & { link: URL | null }> {
  const dir = join(dataDir, 'outbox');
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    const mails: ParsedMail[] = [];
    if (existsSync(dir)) {
      for (const name of readdirSync(dir)
        .filter((n) => n.endsWith('.eml'))
        .sort()) {
        const mail = await simpleParser(readFileSync(join(dir, name)));
        const addresses = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap(
          (a) => a.value,
        );
        if (addresses.some((a) => a.address?.toLowerCase() === to.toLowerCase())) mails.push(mail);
      }
    }
    const mail = mails[opts.skip ?? 0];
    if (mail) {
      const match = /https?:\/\/\S+#token=[A-Za-z0-9_-]{43}/.exec(mail.text ?? '');
      return Object.assign(mail, { link: match ? new URL(match[0]) : null });
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} in ${dir}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
