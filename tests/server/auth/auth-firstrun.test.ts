/**
 * What a new student meets first, over real HTTP: which sign-in ways exist, an honest resend cooldown,
 * a verification link opened twice, and the school's terms and privacy pages.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { expect, it } from 'vitest';

import { describeServer, tokenOf, uniqueEmail, useTestServer } from '../harness';

const h = useTestServer({ auth: { mailCooldownMs: 60_000 } });
const AUTH = '/api/v1/auth';

describeServer('GET /auth/providers', () => {
  it('is public and says Google is off when it is not configured', async () => {
    const reply = await h.get(`${AUTH}/providers`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ email: true, google: false, wallet: true });
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await h.get('/api/v1/openapi.json')).body;
    expect(doc.paths['/api/v1/auth/providers'].get).toBeDefined();
    expect(doc.paths['/api/v1/legal/{name}'].get).toBeDefined();
    expect(doc.paths['/api/v1/auth/verify-email'].post.responses['409']).toBeDefined();
  });
});

describeServer('POST /auth/resend-verification with a cooldown', () => {
  it('says when another mail can be sent, and sends none inside the cooldown', async () => {
    const { email } = await h.register();
    await h.mailTo(email); // the sign-up mail starts the cooldown
    const reply = await h.post(`${AUTH}/resend-verification`, { email });
    expect(reply.status).toBe(200);
    expect(reply.body.retry_after).toBeGreaterThan(0);
    expect(reply.body.retry_after).toBeLessThanOrEqual(60);
    expect(reply.body.message).toMatch(/You can ask for another in \d+ seconds/);
    await new Promise((r) => setTimeout(r, 100));
    expect(h.mailsTo(email)).toHaveLength(1);

    h.advanceClock(61_000);
    try {
      const later = await h.post(`${AUTH}/resend-verification`, { email });
      expect(later.body).toEqual({
        message:
          'If an account with this email needs verification, a new verification email has been sent.',
        retry_after: 60,
      });
      await expect.poll(() => h.mailsTo(email).length).toBe(2);
    } finally {
      h.resetClock();
    }
  });

  it('answers an unknown address exactly as a real one: sent, then the cooldown', async () => {
    const ghost = uniqueEmail('ghost');
    const first = await h.post(`${AUTH}/resend-verification`, { email: ghost });
    expect(first.status).toBe(200);
    expect(first.body.retry_after).toBe(60);
    const second = await h.post(`${AUTH}/resend-verification`, { email: ghost.toUpperCase() });
    expect(second.status).toBe(200);
    expect(second.body.message).toMatch(/You can ask for another in \d+ seconds/);
  });
});

describeServer('POST /auth/verify-email opened a second time', () => {
  it('says the account is verified (409) rather than invalid; unknown stays 400', async () => {
    const { email } = await h.register();
    const token = tokenOf(await h.mailTo(email));
    expect((await h.post(`${AUTH}/verify-email`, { token })).status).toBe(200);
    const again = await h.post(`${AUTH}/verify-email`, { token });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('This email is already verified. Please sign in.');
    expect((await h.post(`${AUTH}/verify-email`, { token: 'x'.repeat(43) })).status).toBe(400);
  });

  it('keeps 400 for an expired link of an account that is still unverified', async () => {
    const { email } = await h.register();
    const token = tokenOf(await h.mailTo(email));
    h.advanceClock(24 * 3600_000 + 1000);
    try {
      expect((await h.post(`${AUTH}/verify-email`, { token })).status).toBe(400);
    } finally {
      h.resetClock();
    }
  });
});

describeServer('GET /legal/{name}', () => {
  it('serves sensible defaults, then the school’s own file from the data dir', async () => {
    const terms = await h.get('/api/v1/legal/terms');
    expect(terms.status).toBe(200);
    expect(terms.body.title).toBe('Terms of use');
    const privacy = await h.get('/api/v1/legal/privacy');
    expect(privacy.body.title).toBe('Privacy notice');
    // Issue 25 item 5: students read these pages; the operator's instructions go to the start log.
    for (const page of [terms, privacy]) {
      expect(page.body.markdown).not.toMatch(/\.md\b|data directory|put its own/);
    }
    for (const section of [
      'What we keep',
      'What we do with it',
      'Who can see it',
      'How long we keep it',
      'Your choices',
      'Questions',
    ]) {
      expect(privacy.body.markdown).toContain(`## ${section}`);
    }

    writeFileSync(path.join(h.dataDir, 'privacy.md'), '# Our privacy promise\n\nWe keep little.\n');
    const own = await h.get('/api/v1/legal/privacy');
    expect(own.body).toEqual({ title: 'Our privacy promise', markdown: 'We keep little.' });
  });

  it('refuses other names (422)', async () => {
    expect((await h.get('/api/v1/legal/secrets')).status).toBe(422);
  });
});
