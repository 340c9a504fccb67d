/**
 * A long saved conversation in real Chromium: <Chat> opens on its last messages, mounts older ones
 * as the student scrolls up without moving what is on screen, and keeps history out of the live log.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, test } from 'vitest';

import { fakeChatAdapter, sessionDetail } from '../../fakes/chat';
import { Chat } from '../../src/chat/Chat';
import type { ChatMessage } from '../../src/chat/chat.adapter';
import { memoryChatStore } from '../../src/chat/chat.store';
import { OPEN_MESSAGES } from '../../src/chat/use-history-window';
import css from '../../src/styles.css?inline';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const style = document.createElement('style');
style.textContent = css;
document.head.append(style);

const roots: Root[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await act(async () => root.unmount());
  document.body.replaceChildren();
});

/** `count` messages, question and reply in turn; each reply a few paragraphs tall. */
function conversation(count: number): ChatMessage[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    content:
      i % 2 === 0
        ? `Question number ${i}`
        : Array.from(
            { length: 4 },
            (_, p) => `Reply ${i}, paragraph ${p}: ${'words '.repeat(40)}`,
          ).join('\n\n'),
    createdAt: new Date(Date.UTC(2025, 2, 14, 9, 0, i)).toISOString(),
  }));
}

async function open(messages: ChatMessage[]) {
  const host = document.createElement('div');
  host.style.cssText = 'width: 700px; height: 500px;';
  document.body.append(host);
  const root = createRoot(host);
  roots.push(root);
  const adapter = fakeChatAdapter({ getSession: async (id) => sessionDetail(id, messages) });
  await act(async () =>
    root.render(<Chat adapter={adapter} sessionId="long" store={memoryChatStore()} />),
  );
  await expect.poll(() => host.querySelector('[role="log"]')).not.toBeNull();
  const scroller = host.querySelector<HTMLElement>('[data-slot="chat-thread"] > div')!;
  const rendered = () => [...host.querySelectorAll('[data-slot="chat-message"]')];
  return { host, scroller, rendered };
}

const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

/** Frame after frame until more are mounted, then none for five frames (300 frames at most). */
async function moreMounted(rendered: () => Element[]) {
  const start = rendered().length;
  let count = start;
  for (let still = 0, frames = 0; (count === start || still < 5) && frames < 300; frames++) {
    await frame();
    still = rendered().length === count ? still + 1 : 0;
    count = rendered().length;
  }
}

describe('<Chat> with a long history', () => {
  test('opens on the last messages, scrolled to the end, the first ones not yet mounted', async () => {
    const messages = conversation(60);
    const { host, scroller, rendered } = await open(messages);
    await act(frame);
    expect(rendered().at(-1)).toHaveTextContent(`Reply 59, paragraph 3`);
    expect(rendered().length).toBeGreaterThanOrEqual(OPEN_MESSAGES);
    expect(rendered().length).toBeLessThan(20);
    expect(host).not.toHaveTextContent('Question number 0');
    expect(scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight).toBeLessThanOrEqual(
      4,
    );
  });

  test('mounts older messages as the student scrolls up, keeping what is on screen in place', async () => {
    const { host, scroller, rendered } = await open(conversation(60));
    await act(frame);
    const before = rendered().length;
    const oldest = rendered()[0]!;
    // Up to the top of what is mounted: the view is let go, and older messages come in above, a
    // page each time the observer sees the top near (inside act: those are React updates too).
    let top = 0;
    await act(async () => {
      scroller.scrollTop = 0;
      scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, bubbles: true }));
      top = oldest.getBoundingClientRect().top;
      await moreMounted(rendered);
    });
    expect(rendered().length).toBeGreaterThan(before);
    expect(scroller.scrollTop).toBeGreaterThan(0);
    expect(Math.abs(oldest.getBoundingClientRect().top - top)).toBeLessThanOrEqual(1);
    // History is not news: it mounts outside the live log, which still holds the latest messages.
    const log = host.querySelector('[role="log"]')!;
    expect(log.contains(rendered()[0]!)).toBe(false);
    expect(log.contains(rendered().at(-1)!)).toBe(true);
  });

  test('the button mounts earlier messages too, down to the first one', async () => {
    const { host, rendered } = await open(conversation(12));
    const button = () =>
      [...host.querySelectorAll('button')].find((b) => b.textContent === 'Show earlier messages');
    while (button()) await act(async () => button()!.click());
    expect(rendered()).toHaveLength(12);
    expect(rendered()[0]).toHaveTextContent('Question number 0');
  });
});
