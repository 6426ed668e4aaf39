import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';

/** One mail, in both forms; `links` are the links it carries, logged when it goes to the outbox. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
}

export interface Mailer {
  /** 'smtp' with SMTP_URL; 'outbox' writes .eml files under DATA_DIR/outbox/ (the embedded default). */
  readonly kind: 'smtp' | 'outbox';
  /** Sends (or writes) the mail; rejects when the SMTP server refuses it or cannot be reached. */
  send(mail: Mail): Promise<void>;
  close(): void;
}

export const outboxDir = (config: Pick<Config, 'DATA_DIR'>) => resolve(config.DATA_DIR, 'outbox');

/**
 * The origin links in mails point at: PUBLIC_URL, else this server on localhost. Never the request's
 * Host header, which anyone can set: a reset link built from it would carry the token to their host.
 */
export function linkOrigin(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

/**
 * SMTP through nodemailer when SMTP_URL is set. Without it the message nodemailer would have sent is
 * written, whole (headers, text and HTML parts), as an .eml file that any mail program opens, and its
 * links are logged: `npm start` needs no mail server, and an operator can still let someone back in.
 */
export function createMailer(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'DATA_DIR'>,
  log: FastifyBaseLogger,
): Mailer {
  // The same message either way: sent over SMTP, or written whole to the outbox.
  const message = (mail: Parameters<Mailer['send']>[0]) => ({
    from: config.MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  });
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      kind: 'smtp',
      async send(mail) {
        const info = await transport.sendMail(message(mail));
        log.info({ messageId: info.messageId, subject: mail.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = outboxDir(config);
  return {
    kind: 'outbox',
    async send(mail) {
      const info = await transport.sendMail(message(mail));
      // The links are keys to accounts: the directory and files are the server user's alone.
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = join(dir, name);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info(
        { to: mail.to, subject: mail.subject, file, links: mail.links },
        'mail written to the outbox (no SMTP_URL); its links are logged here',
      );
    },
    close: () => transport.close(),
  };
}
