import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, linkOrigin, type Mail, type Mailer } from './mailer.ts';

/**
 * Work done after the HTTP answer has gone (looking the account up, throttling, writing the token,
 * sending): the answer's timing says nothing about whether the account exists, a slow or broken mail
 * server never holds a request, and a failure is logged, never thrown at anyone.
 */
export interface MailService {
  readonly mailer: Mailer;
  /** Where links in mails point (PUBLIC_URL, else http://localhost:PORT). */
  readonly origin: string;
  /** Runs `job` after the current request, detached; an error is logged with `what`. */
  later(what: string, job: () => Promise<unknown>): void;
  /** Sends after the current request; a failure is logged with the subject, never the recipient's link. */
  deliver(mail: Mail): void;
  /** Resolves once every job started so far has finished (tests; the app's close waits for it too). */
  settled(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    mail: MailService;
  }
}

export function createMailService(mailer: Mailer, origin: string, log: FastifyBaseLogger): MailService {
  const running = new Set<Promise<unknown>>();
  const later = (what: string, job: () => Promise<unknown>) => {
    const run: Promise<unknown> = new Promise<void>((done) => setImmediate(done))
      .then(job)
      .catch((err: unknown) => log.error({ err }, `mail: ${what} failed`))
      .finally(() => running.delete(run));
    running.add(run);
  };
  return {
    mailer,
    origin,
    later,
    deliver: (mail) => later(`sending '${mail.subject}'`, () => mailer.send(mail)),
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

/** The app's mailer (SMTP or the outbox), for the password-reset and email-change modules. */
export const mailPlugin = fp(async (app: FastifyInstance) => {
  const mailer = createMailer(app.config, app.log);
  const service = createMailService(mailer, linkOrigin(app.config), app.log);
  app.decorate('mail', service);
  // Mails still being prepared need the database: finish them before it closes.
  app.addHook('onClose', async () => {
    await service.settled();
    mailer.close();
  });
});
