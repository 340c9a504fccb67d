/**
 * Outgoing mail through nodemailer: SMTP when SMTP_URL is set, otherwise one `.eml` file per mail under
 * `<data dir>/outbox/` with its link printed on the console. Sending happens in the background, so an
 * answer never waits on (or reveals anything through the timing of) a mail server.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import nodemailer from 'nodemailer';

import type { Logger } from './http/errors';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the mail is about; printed on the console in outbox mode. */
  link?: string;
}

export interface Mailer {
  /** Queues a mail; failures are logged, never thrown. */
  send(mail: Mail): void;
  /** Hands a mail over now; rejects when it could not be (for callers that keep their own outbox). */
  deliver(mail: Mail): Promise<void>;
  /** Resolves when every queued mail has been handed over (or has failed). */
  flush(): Promise<void>;
  /** Deletes the outbox's mails to `address` (after those in flight); nothing to do with SMTP. */
  forget(address: string): Promise<void>;
}

export interface MailerOptions {
  smtpUrl: string | null;
  from: string;
  outboxDir: string;
  logger: Logger;
  /** Called after a mail went out; tests use it to read links. */
  onSent?: (mail: Mail, where: { file?: string; messageId?: string }) => void;
}

export function createMailer(options: MailerOptions): Mailer {
  const { logger } = options;
  const pending = new Set<Promise<void>>();

  const smtp = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  const stream = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });

  async function deliver(mail: Mail): Promise<void> {
    const message = {
      from: options.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    };
    if (smtp) {
      const info = await smtp.sendMail(message);
      options.onSent?.(mail, { messageId: info.messageId });
      return;
    }
    const info = await stream.sendMail(message);
    await mkdir(options.outboxDir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(options.outboxDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
    await writeFile(file, info.message as Buffer, { mode: 0o600 });
    logger.info(
      `[mail] "${mail.subject}" to ${mail.to} → ${file}${mail.link ? `\n[mail] link: ${mail.link}` : ''}`,
    );
    options.onSent?.(mail, { file });
  }

  return {
    send(mail) {
      const job = deliver(mail).catch((error: unknown) => {
        logger.error(`[mail] sending "${mail.subject}" to ${mail.to} failed:`, error);
      });
      pending.add(job);
      void job.finally(() => pending.delete(job));
    },
    deliver(mail) {
      const job = deliver(mail);
      const settled = job.catch(() => {});
      pending.add(settled);
      void settled.finally(() => pending.delete(settled));
      return job;
    },
    async flush() {
      while (pending.size > 0) await Promise.all(pending);
    },
    async forget(address) {
      if (smtp) return;
      while (pending.size > 0) await Promise.all(pending);
      const wanted = address.trim().toLowerCase();
      let names: string[];
      try {
        names = (await readdir(options.outboxDir)).filter((name) => name.endsWith('.eml'));
      } catch {
        return; // no outbox yet
      }
      for (const name of names) {
        const file = path.join(options.outboxDir, name);
        const text = await readFile(file, 'utf8').catch(() => '');
        if (recipients(text).includes(wanted)) await rm(file, { force: true });
      }
    },
  };
}

/** The addresses of a mail's `To:` header (its header block only), lower-cased. */
function recipients(eml: string): string[] {
  const head = eml.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const to = /^to:(.*(?:\r?\n[ \t].*)*)/im.exec(head)?.[1] ?? '';
  return (to.toLowerCase().match(/[^\s<>,"]+@[^\s<>,"]+/g) ?? []).map((a) => a.trim());
}
