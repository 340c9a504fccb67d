/**
 * Issue 24 end to end, on the product as `npm start` runs it: a student of "Maths 7B" (placed by a
 * portal's signed assertion, the portal's JWKS served by the test) writes a self-harm message; the
 * school's safety contact gets one mail without the text; the class's instructor sees the alert with
 * the message through the HTTP adapter, acknowledges and resolves it, both recorded; a teacher of
 * another class sees nothing; and the safety contact opens the mail's link in /teach (axe-checked).
 */
import { randomUUID } from 'node:crypto';

import { beforeAll, describe, expect, test } from 'vitest';

import { createHttpApi } from '../../src/http';
import { FakePortal } from '../server/fake-portal';
import { expectAccessible, newPage } from './browser';
import { createStudent, STUDENT_PASSWORD, useProduct } from './product';

const portal = new FakePortal('RS256');
const contactEmail = `lead.${Date.now()}@school.example`;
const env: Record<string, string> = { AYAH_SAFETY_CONTACTS: contactEmail };
beforeAll(async () => {
  await portal.start();
  env.AYAH_TRUSTED_ISSUERS = JSON.stringify([await portal.trusted('jwks')]);
});
const e2e = useProduct({ env });

async function viaPortal(name: string, classId: string, roles: string[]) {
  const res = await fetch(`${e2e.product.url}/api/v1/auth/token-exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      subject_token: await portal.assertion(`${name}-${randomUUID()}`, {
        claims: {
          name,
          class_id: classId,
          class_name: classId === '7b' ? 'Maths 7B' : 'Maths 7C',
          roles,
        },
      }),
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    }),
  });
  expect(res.status).toBe(200);
  const { access_token } = (await res.json()) as { access_token: string };
  return createHttpApi({ baseURL: e2e.product.url, getToken: () => access_token });
}

describe('a trusted adult in the loop', () => {
  test('a self-harm message in Maths 7B reaches the right adults, and only them', async () => {
    await createStudent(e2e.product, { email: contactEmail, name: 'Mr Okafor' });
    const rivera = await viaPortal('Ms Rivera', '7b', ['Instructor']);
    const chen = await viaPortal('Mr Chen', '7c', ['Instructor']);
    const sam = await viaPortal('Sam', '7b', ['Learner']);

    const reply = await sam.chat.send({
      messages: [{ role: 'user', content: 'I want to kill myself' }],
    });
    expect(reply.response).toContain(
      'If you seem to be in danger, Ayah lets a trusted adult at your school know.',
    );

    const link = await e2e.product.linkFrom(/Ayah safety alert/);
    const alertMails = e2e.product.mails().filter((m) => /Ayah safety alert/.test(m));
    expect(alertMails).toHaveLength(1);
    expect(alertMails[0]).toContain(contactEmail);
    expect(alertMails[0]).not.toMatch(/kill/i);
    const alertId = new URL(link).searchParams.get('alert')!;

    const { alerts } = await rivera.teacher.alerts({});
    expect(alerts.map((a) => a.id)).toEqual([alertId]);
    const detail = await rivera.teacher.alert(alertId);
    expect(detail.messages[0]!.message).toBe('I want to kill myself');
    await rivera.teacher.acknowledge(alertId);
    const resolved = await rivera.teacher.resolve(alertId, 'Talked with Sam and the counselor');
    expect(resolved.events.map((e) => `${e.actor}: ${e.action}`)).toEqual([
      'Ayah: created',
      'Ms Rivera: viewed',
      'Ms Rivera: acknowledged',
      'Ms Rivera: resolved',
    ]);
    expect((await chen.teacher.alerts({})).alerts).toEqual([]);
    await expect(chen.teacher.alert(alertId)).rejects.toMatchObject({ status: 404 });

    // The safety contact follows the mail's link.
    const page = await newPage(e2e.browser);
    await page.goto(`${e2e.product.url}/login`);
    await page.getByLabel('Email').fill(contactEmail);
    await page.getByLabel('Password', { exact: true }).fill(STUDENT_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/assistant/);
    // The sidebar's Teach link counts the alert not yet opened; opening it on /teach clears the
    // badge at once, without a reload.
    // (The count is fetched after sign-in: on a busy 2-core runner it once took longer than the
    // poll's default second.)
    const teach = page.getByRole('link', { name: /^Teach/ });
    await expect
      .poll(() => teach.textContent(), { timeout: 15_000 })
      .toBe('Teach1 unread safety alerts');
    await teach.click();
    await page.waitForURL(/\/teach$/);
    await page.getByRole('button', { name: /^Unread: Sam · Self-harm/ }).click();
    await page.getByRole('region', { name: 'Sam: Self-harm' }).waitFor();
    await expect.poll(() => teach.textContent(), { timeout: 15_000 }).toBe('Teach');

    await page.goto(link);
    const panel = page.getByRole('region', { name: 'Sam: Self-harm' });
    await panel.waitFor();
    await expect.poll(() => panel.textContent()).toContain('Talked with Sam and the counselor');
    await expectAccessible(page, 'teach-alert');
  });
});
