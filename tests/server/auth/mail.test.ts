/** Mail over real SMTP on loopback (the `smtp-server` package), and the outbox fallback. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { verificationMail } from '../../../server/auth/mail';
import { createMailer } from '../../../server/mailer';
import { describeServer, Harness, uniqueEmail } from '../harness';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

const received: Received[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((r) => r.address),
        raw: Buffer.concat(chunks).toString('utf8'),
      });
      callback();
    });
  },
});

let smtpUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

/** Undoes quoted-printable soft breaks and escapes, enough to find a link in a raw message. */
function unfold(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe('the mailer', () => {
  it('delivers over SMTP: plain text and HTML, the link intact', async () => {
    const mailer = createMailer({
      smtpUrl,
      from: 'Ayah <no-reply@ayah.local>',
      outboxDir: '/nonexistent',
      logger: silent,
    });
    const to = uniqueEmail('smtp');
    const link = 'http://app.test/verify-email?token=abcDEF123_-xyz';
    mailer.send(verificationMail(to, 'Noor', link));
    await mailer.flush();
    const message = received.find((m) => m.to.includes(to));
    expect(message).toBeDefined();
    expect(message!.from).toBe('no-reply@ayah.local');
    const raw = unfold(message!.raw);
    expect(raw).toMatch(/^Subject: Confirm your email for Ayah/m);
    expect(raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(raw).toMatch(/Content-Type: text\/plain/);
    expect(raw).toMatch(/Content-Type: text\/html/);
    expect(raw).toContain(link);
    expect(raw).toContain('Hi Noor');
  });

  it('writes an .eml file (mode 0600) per mail to the outbox without SMTP, and prints the link', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-outbox-'));
    const lines: string[] = [];
    const mailer = createMailer({
      smtpUrl: null,
      from: 'Ayah <no-reply@ayah.local>',
      outboxDir: path.join(dir, 'outbox'),
      logger: { ...silent, info: (line: string) => void lines.push(line) },
    });
    const link = 'http://app.test/reset-password?token=tok_123';
    mailer.send(verificationMail('kid@example.com', 'Kid', link));
    mailer.send(verificationMail('other@example.com', 'Other', link));
    await mailer.flush();
    const files = readdirSync(path.join(dir, 'outbox'));
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
    const file = path.join(dir, 'outbox', files[0]!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(unfold(readFileSync(file, 'utf8'))).toContain(link);
    expect(lines.join('\n')).toContain(link);
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs a failed delivery and never throws into the request', async () => {
    const errors: unknown[] = [];
    const mailer = createMailer({
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'Ayah <no-reply@ayah.local>',
      outboxDir: '/nonexistent',
      logger: { ...silent, error: (...args: unknown[]) => void errors.push(args) },
    });
    expect(() =>
      mailer.send(verificationMail('x@example.com', 'X', 'http://app.test/x')),
    ).not.toThrow();
    await mailer.flush();
    expect(errors).toHaveLength(1);
  });

  it('escapes the name in the HTML body', () => {
    const mail = verificationMail(
      'x@example.com',
      '<script>alert(1)</script>',
      'http://app.test/v?token=a&b',
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&#60;script&#62;');
    expect(mail.html).toContain('token=a&#38;b');
  });
});

describeServer('the server with SMTP_URL', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await new Harness({ smtpUrl }).start();
  });
  afterAll(() => h.close());

  it('sends the verification mail of a registration by SMTP, with a working link', async () => {
    const { email, reply } = await h.register();
    expect(reply.status).toBe(201);
    await expect.poll(() => received.some((m) => m.to.includes(email))).toBe(true);
    const raw = unfold(received.find((m) => m.to.includes(email))!.raw);
    const token = /http:\/\/app\.test\/verify-email\?token=([A-Za-z0-9_-]{43})/.exec(raw)?.[1];
    expect(token).toBeDefined();
    const verified = await h.post('/api/v1/auth/verify-email', { token });
    expect(verified.status).toBe(200);
    expect(verified.body.user.email).toBe(email);
    expect(readdirSync(h.dataDir)).not.toContain('outbox');
  });
});
