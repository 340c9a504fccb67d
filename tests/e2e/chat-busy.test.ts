/**
 * The chat when Ayah is busy: the product with one reply slot and one place in line
 * (AYAH_MAX_STREAMS=1, AYAH_STREAM_QUEUE=1), a classmate's reply holding the slot, and a student who
 * sends meanwhile. The student sees at once that they are in line (the stream's `status`, beside the
 * typing dots), then the reply streams in once the classmate's has ended. axe-core on the busy state.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';

import { BUSY_STATUS } from '../../server/http/stream-gate';
import { FakeOpenAI } from '../server/fake-openai';
import { expectAccessible, newPage } from './browser';
import { createStudent, useProduct } from './product';

const model = new FakeOpenAI();
const e2e = useProduct({ model, env: { AYAH_MAX_STREAMS: '1', AYAH_STREAM_QUEUE: '1' } });

let student: { email: string; password: string };
let classmate: { token: string };

beforeAll(async () => {
  const stamp = Date.now();
  student = await createStudent(e2e.product, { email: `ria.${stamp}@example.com`, name: 'Ria' });
  classmate = await createStudent(e2e.product, { email: `tom.${stamp}@example.com`, name: 'Tom' });
});

async function signIn(page: Page) {
  await page.goto(`${e2e.product.url}/login`);
  await page.getByLabel('Email').fill(student.email);
  await page.getByLabel('Password', { exact: true }).fill(student.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/assistant/);
}

describe('the chat while Ayah is busy', () => {
  test('says the student is in line, then streams the reply', async () => {
    const page = await newPage(e2e.browser);
    await signIn(page);
    model.script(
      // The classmate's reply holds the one slot for a few seconds before its words.
      { kind: 'chunks', chunks: ['Photosynthesis', ' makes sugar.'], startDelayMs: 4000 },
      { kind: 'chunks', chunks: ['A prime', ' has two', ' factors.'], delayMs: 20 },
    );
    const asked = model.completions().length;
    const held = fetch(`${e2e.product.url}/api/v1/chat/send/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${classmate.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'What is photosynthesis?' }] }),
    }).then((r) => r.text());
    const deadline = Date.now() + 10_000;
    while (model.completions().length === asked && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));

    const composer = page.getByRole('textbox', { name: 'Message Ayah' });
    await composer.fill('What is a prime number?');
    await composer.press('Enter');
    const busy = page.locator('[data-slot="reply-activity"][role="status"]', {
      hasText: BUSY_STATUS,
    });
    await busy.waitFor({ timeout: 3000 });
    await expectAccessible(page, 'assistant-busy-in-line-desktop');

    const reply = page
      .locator('[data-role="assistant"][data-status="complete"]')
      .filter({ hasText: 'A prime has two factors.' });
    await reply.waitFor({ timeout: 20_000 });
    await busy.waitFor({ state: 'detached' });
    expect(await held).toContain('event: done');
    // The student's question reached the model only after the classmate's reply had ended.
    const [first, second] = model.completions().slice(asked);
    expect(second!.receivedAt).toBeGreaterThanOrEqual(first!.answeredAt);
    await page.context().close();
  }, 60_000);
});
