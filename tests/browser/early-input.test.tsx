/**
 * Input on the prerendered screen before the app is live (app/early-input.ts), in real Chromium with
 * trusted keys: held, then done again on the app's own chat once the session is known — and input that
 * comes while that replay is still going is held behind it, not done before it.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, test } from 'vitest';
import { userEvent } from 'vitest/browser';

import { holdEarlyInput, replayEarlyInput } from '../../app/early-input';
import {
  deferred,
  fakeChatAdapter,
  pending,
  sampleAnswer,
  sessionDetail,
  streamOf,
} from '../../fakes/chat';
import type { ChatSendRequest, ChatSessionDetail } from '../../src/api';
import { Chat } from '../../src/chat/Chat';
import type { ChatAdapter } from '../../src/chat/chat.adapter';
import { memoryChatStore } from '../../src/chat/chat.store';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
const realFrame = window.requestAnimationFrame;
afterEach(async () => {
  window.requestAnimationFrame = realFrame;
  if (root) await act(async () => root!.unmount());
  root = undefined;
  document.body.replaceChildren();
  delete (window as unknown as Record<string, unknown>).__ayahEarlyInput;
});

/** The signed-in shell's preview (AssistantPage): a chat whose calls never answer, no user yet. */
const waiting = new Proxy(
  {},
  { get: (_, key) => (key === 'then' ? undefined : pending) },
) as ChatAdapter;

/** Frames held until `release`: the replay waits a frame before each input it does again. */
function holdFrames() {
  const queued: FrameRequestCallback[] = [];
  window.requestAnimationFrame = (callback) => {
    queued.push(callback);
    return queued.length;
  };
  return () => {
    window.requestAnimationFrame = realFrame;
    for (const callback of queued.splice(0)) realFrame(callback);
  };
}

/** A page whose first screen held input: the preview chat mounted in `#root`, as AssistantPage's. */
async function firstScreen(adapter: ChatAdapter, store = memoryChatStore()) {
  holdEarlyInput();
  const host = document.createElement('div');
  host.id = 'root';
  host.style.cssText = 'width: 700px; height: 500px;';
  document.body.append(host);
  root = createRoot(host);
  await act(async () =>
    root!.render(<Chat key="preview" adapter={waiting} user={null} store={store} />),
  );
  const input = () => host.querySelector<HTMLTextAreaElement>('[data-slot="chat-input"]')!;
  return {
    host,
    input,
    /** The session is known: the student's own chat replaces the preview. */
    signedIn: () =>
      act(async () =>
        root!.render(<Chat key="live" adapter={adapter} user={{ id: 'u1' }} store={store} />),
      ),
  };
}

/** An adapter whose replies say 'x = 2', keeping what each send asked. */
function answering(overrides: Partial<ChatAdapter> = {}) {
  const sent: ChatSendRequest[] = [];
  const stream = streamOf(['x = 2'], { ...sampleAnswer, response: 'x = 2' });
  const adapter = fakeChatAdapter({
    sendStream: (body, options) => {
      sent.push(body);
      return stream(body, options);
    },
    ...overrides,
  });
  return { adapter, asked: () => sent.map((body) => body.messages.at(-1)?.content) };
}

describe('input held on the first screen', () => {
  test('an Enter that comes while the held text is being replayed sends that text, once', async () => {
    const { adapter, asked } = answering();
    const { host, input, signedIn } = await firstScreen(adapter);
    // Typed in the preview, before the session knows who is there.
    await act(() => userEvent.fill(input(), 'Solve 2x + 3 = 7'));
    await signedIn();
    expect(input().value).toBe('');
    const release = holdFrames();
    const replayed = replayEarlyInput(host);
    // The student's Enter, while the replay waits for its first frame.
    input().focus();
    await act(() => userEvent.keyboard('{Enter}'));
    release();
    await act(() => replayed);

    await expect
      .poll(() => host.querySelector('[data-role="assistant"]')?.getAttribute('data-status'))
      .toBe('complete');
    expect(asked()).toEqual(['Solve 2x + 3 = 7']);
    expect(host.querySelector('[data-role="user"]')).toHaveTextContent('Solve 2x + 3 = 7');
    expect(input().value).toBe('');
  });

  test('a held Enter waits for the last conversation to load, then sends into it', async () => {
    const loaded = deferred<ChatSessionDetail>();
    const { adapter, asked } = answering({ getSession: () => loaded.promise });
    const store = memoryChatStore();
    store.save('u1', {
      currentSessionId: 's1',
      currentThreadId: 't1',
      messageCount: 2,
      timestamp: Date.now(),
    });
    const { host, input, signedIn } = await firstScreen(adapter, store);
    await act(() => userEvent.fill(input(), 'Solve 2x + 3 = 7'));
    await act(() => userEvent.keyboard('{Enter}'));
    await signedIn();
    // The student's chat reopens their last conversation: the composer is read-only meanwhile.
    expect(input().readOnly).toBe(true);
    const replayed = replayEarlyInput(host);
    // The replay, the conversation's load and the reply update React as they come: one act.
    await act(async () => {
      await expect.poll(() => input().value).toBe('Solve 2x + 3 = 7');
      loaded.resolve(sessionDetail('s1'));
      await replayed;
      await expect.poll(asked).toEqual(['Solve 2x + 3 = 7']);
      await expect
        .poll(() => host.querySelector('[data-role="assistant"]:last-of-type')?.textContent)
        .toContain('x = 2');
    });
    // Sent into that conversation, after its earlier messages.
    expect(host.querySelectorAll('[data-role="user"]')).toHaveLength(2);
    expect(input().value).toBe('');
  });
});
