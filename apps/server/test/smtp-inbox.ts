import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpInbox {
  /** smtp://127.0.0.1:<port> for SMTP_URL. */
  url: string;
  /** Every message received so far, parsed. */
  messages: ParsedMail[];
  /** The messages sent to the address (case-insensitive). */
  to(address: string): ParsedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server in the test process (smtp-server, the Nodemailer project's): the app's mailer talks
 * SMTP to it exactly as to a provider, and each message is parsed (mailparser) for the test to read.
 */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on localhost: no certificate to make up.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) =>
      messages.filter((m) => {
        const to = Array.isArray(m.to) ? m.to : m.to ? [m.to] : [];
        return to.some((a) => a.value.some((v) => v.address?.toLowerCase() === address.toLowerCase()));
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the link in a mail's plain text (…/reset-password#token=… or …/confirm-email#token=…). */
export function linkIn(mail: ParsedMail): { url: string; path: string; token: string } {
  const match = /(https?:\/\/\S+?)(\/[a-z-]+)#token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '');
  if (!match) throw new Error(`no link in: ${mail.text}`);
  return { url: match[0], path: match[2]!, token: match[3]! };
}
