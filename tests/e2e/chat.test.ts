/**
 * The chat end to end: the product started against a loopback model that speaks the OpenAI streaming
 * wire format (tests/server/fake-openai.ts), a student who sends a message with Enter and watches a
 * reply stream in with math in both notations, a table and code; the chat in the sidebar, renamed,
 * found by a word of its messages, opened, a second chat deleted, the first archived; the
 * conversation restored from `?sessionId=`; signing out and in again; and the same chat on a phone.
 * axe-core on every state and dialog; screenshots under .test-results/screenshots/.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';

import { FakeOpenAI } from '../server/fake-openai';
import {
  animationsDone,
  expectAccessible,
  MOBILE,
  newPage as openPage,
  screenshot,
} from './browser';
import { createStudent, useProduct } from './product';

/** The tutor's reply: inline and display math in dollar and bracket notation, a GFM table, code. */
const REPLY = [
  'Great question! A square number is $n^2$, so $3^2 = 9$. In bracket notation: \\(a^2 + b^2 = c^2\\).',
  '',
  '$$',
  'x^2 = 9 \\implies x = \\pm 3',
  '$$',
  '',
  'The same idea with brackets:',
  '',
  '\\[',
  '\\sqrt{16} = 4',
  '\\]',
  '',
  '| n | square |',
  '| --- | --- |',
  '| 2 | 4 |',
  '| 3 | 9 |',
  '| 4 | 16 |',
  '',
  '```python',
  'def square(n):',
  '    return n * n',
  '```',
  '',
  'Which square comes after 16?',
].join('\n');

/** Cut into small pieces, as a model streams them. */
const pieces = (text: string, size = 5) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
    text.slice(i * size, i * size + size),
  );

const FIRST_MESSAGE = 'Can you explain squares and square roots with an example?';
const NEW_TITLE = 'Algebra warm-up';

const model = new FakeOpenAI();
const e2e = useProduct({ model });

// Copy buttons are checked against the real clipboard.
const newPage = (viewport?: { width: number; height: number }) =>
  openPage(e2e.browser, {
    ...(viewport && { viewport }),
    permissions: ['clipboard-read', 'clipboard-write'],
  });
let student: { email: string; password: string };

beforeAll(async () => {
  student = await createStudent(e2e.product, {
    email: `sam.${Date.now()}@example.com`,
    name: 'Sam',
  });
});

async function signIn(page: Page) {
  await page.goto(`${e2e.product.url}/login`);
  await page.getByLabel('Email').fill(student.email);
  await page.getByLabel('Password', { exact: true }).fill(student.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/assistant/);
}

/**
 * Records, from inside the page, what the reply went through while it streamed. A finished reply
 * may show its text as it is until the renderer has loaded (a restored chat); a streaming one never.
 */
async function watchReply(page: Page) {
  await page.evaluate(() => {
    const seen = {
      typing: false,
      streaming: false,
      busyWhileStreaming: false,
      stopWhileStreaming: false,
      rawMarkup: [] as string[],
    };
    (window as unknown as { __reply: typeof seen }).__reply = seen;
    new MutationObserver(() => {
      if (document.querySelector('[data-slot="typing-indicator"]')) seen.typing = true;
      for (const el of document.querySelectorAll('[data-role="assistant"]')) {
        if (el.getAttribute('data-status') === 'streaming') {
          seen.streaming = true;
          const log = document.querySelector('[role="log"][aria-label="Conversation with Ayah"]');
          if (log?.getAttribute('aria-busy') === 'true') seen.busyWhileStreaming = true;
          if (document.querySelector('button[aria-label="Stop reply"]'))
            seen.stopWhileStreaming = true;
          // Visible text only (KaTeX's MathML annotation carries the TeX without delimiters).
          const text = (el as HTMLElement).innerText;
          if (/\$|\\\(|\\\[|```|\| --- \|/.test(text)) seen.rawMarkup.push(text.slice(-80));
        }
      }
    }).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
}

async function replySeen(page: Page) {
  return page.evaluate(
    () =>
      (
        window as unknown as {
          __reply: {
            typing: boolean;
            streaming: boolean;
            busyWhileStreaming: boolean;
            stopWhileStreaming: boolean;
            rawMarkup: string[];
          };
        }
      ).__reply,
  );
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sidebar' });
const chatsList = (page: Page) => sidebar(page).getByRole('list', { name: 'Chats' });
const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation with Ayah' });

describe('a student talks to Ayah', () => {
  test('streams a reply with math, a table and code, and manages the chat', async () => {
    const page = await newPage();
    await signIn(page);
    await page.getByRole('heading', { name: 'Ready to learn together?' }).waitFor();

    // Send with Enter; the reply streams in.
    model.script({ kind: 'chunks', chunks: pieces(REPLY), delayMs: 12 });
    const input = page.getByRole('textbox', { name: 'Message Ayah' });
    await input.fill(FIRST_MESSAGE);
    await watchReply(page);
    // What the reply goes through is recorded inside the page: on a busy machine a short reply can
    // finish between two looks from here.
    await input.press('Enter');

    const reply = page.locator('[data-role="assistant"][data-status="complete"]');
    await reply.waitFor({ timeout: 20_000 });
    await page.waitForURL(/\/assistant\?sessionId=/);
    // Focus stayed in the input; the finished reply is announced once, through a status region.
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    await page
      .locator('[data-slot="chat-thread"] [role="status"]')
      .filter({ hasText: 'Which square comes after 16?' })
      .waitFor({ state: 'attached' });
    const seen = await replySeen(page);
    expect(seen.typing, 'the typing indicator showed').toBe(true);
    expect(seen.streaming, 'the reply streamed').toBe(true);
    expect(seen.busyWhileStreaming, 'the conversation was aria-busy while streaming').toBe(true);
    expect(seen.stopWhileStreaming, 'Stop reply was offered while streaming').toBe(true);
    expect(await conversation(page).getAttribute('aria-busy')).not.toBe('true');
    expect(seen.rawMarkup, 'no raw markup while streaming').toEqual([]);
    expect(model.completions().at(-1)!.body.stream).toBe(true);

    // The final DOM: KaTeX inline and display, the table, the code block with its label and copy.
    await reply.locator('.katex-display').nth(1).waitFor();
    expect(await reply.locator('.katex').count()).toBeGreaterThanOrEqual(5);
    expect(await reply.locator('.katex-display').count()).toBe(2);
    expect(await reply.locator('table td').allInnerTexts()).toEqual([
      '2',
      '4',
      '3',
      '9',
      '4',
      '16',
    ]);
    expect(await reply.locator('table th').allInnerTexts()).toEqual(['n', 'square']);
    expect(await reply.locator('pre code').innerText()).toContain('return n * n');
    await expect(reply.locator('[data-slot="code-language"]').innerText()).resolves.toBe('python');
    const text = await reply.innerText();
    expect(text).not.toContain('$');
    expect(text).not.toContain('\\[');
    expect(text).not.toContain('\\(');
    expect(text).toContain('Which square comes after 16?');
    await reply.getByRole('button', { name: 'Copy code' }).click();
    await reply.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'def square(n):\n    return n * n',
    );
    await expect(conversation(page).getAttribute('aria-busy')).resolves.toBe('false');
    await expectAccessible(page, 'assistant-conversation-desktop');

    // The chat is in the sidebar, titled from the first message.
    const sessionId = new URL(page.url()).searchParams.get('sessionId')!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const item = chatsList(page).getByRole('button', { name: FIRST_MESSAGE, exact: true });
    await item.waitFor();
    await expect(item.getAttribute('aria-current')).resolves.toBe('page');

    // Rename it through its menu.
    await sidebar(page)
      .getByRole('button', { name: `Options for ${FIRST_MESSAGE}` })
      .click();
    await page.getByRole('menuitem', { name: 'Rename' }).waitFor();
    await expectAccessible(page, 'chat-menu-open-desktop');
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename chat' });
    await rename.waitFor();
    await expect(rename.getByLabel('Chat name').inputValue()).resolves.toBe(FIRST_MESSAGE);
    await expectAccessible(page, 'rename-dialog-desktop');
    await rename.getByLabel('Chat name').fill(NEW_TITLE);
    await rename.getByRole('button', { name: 'Save' }).click();
    await rename.waitFor({ state: 'hidden' });
    await chatsList(page).getByRole('button', { name: NEW_TITLE, exact: true }).waitFor();
    expect(await chatsList(page).getByRole('button', { name: FIRST_MESSAGE }).count()).toBe(0);

    // A new chat, then Search Chats by a word of the messages (not of the new title) opens it again.
    await sidebar(page).getByRole('button', { name: 'New Chat' }).click();
    await page.waitForURL(/\/assistant$/);
    await page.getByRole('heading', { name: 'Ready to learn together?' }).waitFor();
    await sidebar(page).getByRole('button', { name: 'Search Chats' }).click();
    const search = page.getByRole('dialog', { name: 'Search chats' });
    await search.getByRole('region', { name: 'Recent chats' }).waitFor();
    await search.getByRole('searchbox', { name: 'Search chats' }).fill('roots');
    const found = search
      .getByRole('region', { name: 'Results' })
      .getByRole('button', { name: new RegExp(NEW_TITLE) });
    await found.waitFor();
    await search.getByRole('status').filter({ hasText: '1 chat found' }).waitFor();
    await expectAccessible(page, 'search-dialog-results-desktop');
    await found.click();
    await search.waitFor({ state: 'hidden' });
    await page.waitForURL(new RegExp(`sessionId=${sessionId}`));
    await conversation(page).getByText(FIRST_MESSAGE).waitFor();
    await conversation(page).locator('.katex-display').first().waitFor();

    // A second chat, deleted after confirming.
    await sidebar(page).getByRole('button', { name: 'New Chat' }).click();
    await page.waitForURL(/\/assistant$/);
    model.script({ kind: 'chunks', chunks: ['Sure, ', 'fractions ', 'next.'] });
    await input.fill('Fractions next please');
    await input.press('Enter');
    await page.waitForURL(/\/assistant\?sessionId=/);
    await conversation(page).getByText('Sure, fractions next.').waitFor();
    const second = chatsList(page).getByRole('button', {
      name: 'Fractions next please',
      exact: true,
    });
    await second.waitFor();
    await sidebar(page).getByRole('button', { name: 'Options for Fractions next please' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete chat?' });
    await confirm.waitFor();
    await confirm.getByText('“Fractions next please” will be deleted permanently.').waitFor();
    await expectAccessible(page, 'delete-confirm-desktop');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await second.waitFor({ state: 'detached' });
    await page.waitForURL(/\/assistant$/);

    // Archive the first: it leaves the list.
    await sidebar(page)
      .getByRole('button', { name: `Options for ${NEW_TITLE}` })
      .click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    await chatsList(page)
      .getByRole('button', { name: NEW_TITLE, exact: true })
      .waitFor({ state: 'detached' });
    await sidebar(page).getByText('No chats yet').waitFor();

    // Loading the page on its `sessionId` restores the conversation.
    await page.goto(`${e2e.product.url}/assistant?sessionId=${sessionId}`);
    await conversation(page).getByText(FIRST_MESSAGE).waitFor();
    const restored = conversation(page).locator('[data-role="assistant"]');
    await restored.locator('.katex-display').nth(1).waitFor();
    expect(await restored.locator('table td').count()).toBe(6);
    await expect(restored.locator('[data-slot="code-language"]').innerText()).resolves.toBe(
      'python',
    );
    await page.reload();
    await conversation(page).getByText('Which square comes after 16?').waitFor();

    // Sign out, and in again.
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL(/\/auth$/);
    await signIn(page);
    await page.getByText('Signed in successfully!').waitFor();
    // The student's last conversation comes back, and its id into the URL.
    await page.waitForURL(new RegExp(`sessionId=${sessionId}`));
    await conversation(page).getByText('Which square comes after 16?').waitFor();
    await screenshot(page, 'assistant-signed-in-again-desktop');
    await page.context().close();
  }, 90_000);

  test("sees 'Checking the maths…' while the tutor checks a claim, then only the corrected reply", async () => {
    const page = await newPage();
    await signIn(page);
    const corrected =
      'Not quite: $\\frac{3}{4} = \\frac{6}{8}$, so $\\frac{3}{4} + \\frac{1}{8} = \\frac{7}{8}$.';
    model.script(
      {
        kind: 'tools',
        calls: [
          {
            name: 'check_math',
            arguments: JSON.stringify({ expression: '3/4 + 1/8', claimed: '5/8' }),
          },
        ],
      },
      // The model takes a moment to begin once it has the check's answer.
      { kind: 'chunks', chunks: pieces(corrected), delayMs: 10, startDelayMs: 1500 },
    );
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __activity: string[] }).__activity = seen;
      new MutationObserver(() => {
        const status = document.querySelector('[data-slot="reply-activity"]');
        if (status?.textContent && status.getAttribute('role') === 'status')
          seen.push(status.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('textbox', { name: 'Message Ayah' }).fill('Is 3/4 + 1/8 = 5/8?');
    await page.getByRole('textbox', { name: 'Message Ayah' }).press('Enter');
    const checking = page.locator('[data-slot="reply-activity"]', {
      hasText: 'Checking the maths…',
    });
    await checking.waitFor();
    await expectAccessible(page, 'assistant-checking-maths-desktop');

    // The student's last chat was restored on sign-in: the reply is its newest message.
    const reply = page
      .locator('[data-role="assistant"][data-status="complete"]')
      .filter({ hasText: 'Not quite' });
    await reply.locator('.katex').nth(1).waitFor({ timeout: 20_000 });
    await checking.waitFor({ state: 'detached' });
    const seen = await page.evaluate(
      () => (window as unknown as { __activity: string[] }).__activity,
    );
    expect(seen).toContain('Checking the maths…');
    expect(await reply.innerText()).toContain('Not quite');
    expect(await reply.innerText()).not.toContain('Checking the maths');
    await page.context().close();
  }, 90_000);

  test('chats on a phone: the header opens the chats drawer, a reply arrives', async () => {
    const page = await newPage(MOBILE);
    // The markdown renderer arrives only after the reply has streamed (a slow phone network): the
    // streaming reply keeps its typing dots meanwhile and never shows half-written markup.
    let releaseRenderer!: () => void;
    const rendererHeld = new Promise<void>((resolve) => (releaseRenderer = resolve));
    await page.route('**/assets/markdown-*.js', async (route) => {
      await rendererHeld;
      await route.continue();
    });
    await signIn(page);
    await page.goto(`${e2e.product.url}/assistant`);
    await page.getByRole('heading', { name: 'Ready to learn together?' }).waitFor();
    // The desktop sidebar is hidden; the header's toggle opens it as a drawer.
    await expect(sidebar(page).isVisible()).resolves.toBe(false);
    const toggle = page.getByRole('button', { name: 'Open chats menu' });
    await toggle.click();
    const drawer = page.getByRole('dialog', { name: 'Chats', exact: true });
    await drawer.getByRole('button', { name: 'New Chat' }).waitFor();
    await drawer.getByRole('button', { name: 'Search Chats' }).waitFor();
    await expectAccessible(page, 'chats-drawer-mobile');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    // In the drawer, the sidebar's collapse button closes it.
    await toggle.click();
    await drawer.getByRole('button', { name: 'Collapse sidebar' }).click();
    await drawer.waitFor({ state: 'hidden' });

    model.script({
      kind: 'chunks',
      chunks: pieces('A prime has exactly two divisors: $1$ and itself, like $7$.', 4),
      delayMs: 10,
    });
    const input = page.getByRole('textbox', { name: 'Message Ayah' });
    await input.fill('What is a prime number?');
    await watchReply(page);
    await input.press('Enter');
    const reply = page.locator('[data-role="assistant"][data-status="complete"]');
    await reply.waitFor({ timeout: 20_000 });
    const seen = await replySeen(page);
    expect(seen.streaming, 'the reply streamed before the renderer came').toBe(true);
    expect(seen.rawMarkup, 'no raw markup while streaming without the renderer').toEqual([]);
    releaseRenderer();
    await reply.locator('.katex').nth(1).waitFor();
    expect(await reply.innerText()).toContain('exactly two divisors');
    await page.waitForURL(/\/assistant\?sessionId=/);
    await page
      .getByRole('banner')
      .getByRole('heading', { name: 'What is a prime number?', exact: true })
      .waitFor();
    await expectAccessible(page, 'assistant-conversation-mobile');

    // The new chat is listed in the drawer.
    await toggle.click();
    const listed = drawer
      .getByRole('list', { name: 'Chats' })
      .getByRole('button', { name: 'What is a prime number?', exact: true });
    await listed.waitFor();
    await expect(listed.getAttribute('aria-current')).resolves.toBe('page');
    await animationsDone(page);
    await screenshot(page, 'chats-drawer-with-chat-mobile');
    // New Chat from the drawer, then Search Chats: the drawer closes first and the search opens over
    // the page; it finds the chat by a word of Ayah's reply and opens it.
    await drawer.getByRole('button', { name: 'New Chat' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await page.waitForURL(/\/assistant$/);
    await page.getByRole('heading', { name: 'Ready to learn together?' }).waitFor();
    await toggle.click();
    await drawer.getByRole('button', { name: 'Search Chats' }).click();
    const search = page.getByRole('dialog', { name: 'Search chats' });
    await search.waitFor();
    await drawer.waitFor({ state: 'hidden' });
    await search.getByRole('searchbox', { name: 'Search chats' }).fill('divisors');
    const found = search
      .getByRole('region', { name: 'Results' })
      .getByRole('button', { name: /What is a prime number\?/ });
    await found.waitFor();
    await expectAccessible(page, 'search-dialog-results-mobile');
    await found.click();
    await search.waitFor({ state: 'hidden' });
    await drawer.waitFor({ state: 'hidden' });
    await page.waitForURL(/\/assistant\?sessionId=/);
    await reply.locator('.katex').nth(1).waitFor();
    // Closing the search without a pick hands focus back to the button that opens the drawer.
    await toggle.click();
    await drawer.getByRole('button', { name: 'Search Chats' }).click();
    await search.waitFor();
    await page.keyboard.press('Escape');
    await search.waitFor({ state: 'hidden' });
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'Open chats menu',
    );
    await page.context().close();
  }, 60_000);
});
