/**
 * The in-browser half of bench:history: opens a saved session of `count` messages in the
 * production `<Chat>` (a fake adapter answers `getSession`), or renders the same messages with
 * naive react-markdown, and times it to the frame that paints the last message. Driven by run.mjs
 * through `window.bench`.
 */
import '../../src/styles.css';

import { useLayoutEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';

import { fakeChatAdapter, sessionDetail } from '../../fakes/chat';
import { Chat } from '../../src/chat/Chat';
import type { ChatMessage } from '../../src/chat/chat.adapter';
import { memoryChatStore } from '../../src/chat/chat.store';
import { normalizeMath } from '../../src/lib/math';
import { plainKatexPlugins } from '../../src/markdown/katex';
import { loadKatex } from '../../src/markdown/math';
import { MarkdownBlock, markdownRootClass } from '../../src/markdown/render';
import { AyahRoot } from '../../src/ui/root';
import { replyMarker, sessionMessages } from './session';

export type Renderer = 'ours' | 'naive';

export interface OpenStats {
  ms: number;
  /** How many messages are in the DOM once the last one is painted. */
  mounted: number;
  /** Each message in the DOM, oldest first: a reply's markup, a question's text. */
  dom: string[];
}

/**
 * Naive: every message rendered at once, each reply by react-markdown with remark-gfm, remark-math
 * and plain rehype-katex (with our components, so the markup compares), scrolled to the end.
 */
function NaiveThread({ messages }: { messages: ChatMessage[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    scroller.current!.scrollTop = scroller.current!.scrollHeight;
  }, []);
  return (
    <AyahRoot style={{ height: '100%' }}>
      <div ref={scroller} style={{ height: '100%', overflowY: 'auto' }}>
        <div role="log" style={{ maxWidth: 768, margin: '0 auto', padding: '24px 16px' }}>
          {messages.map((message) =>
            message.role === 'user' ? (
              <div key={message.id} data-bench-message style={{ marginBlock: 24 }}>
                {message.content}
              </div>
            ) : (
              <div key={message.id} data-bench-message style={{ marginBlock: 24 }}>
                <div data-slot="markdown" className={markdownRootClass}>
                  <MarkdownBlock
                    markdown={normalizeMath(message.content)}
                    katex={plainKatexPlugins}
                  />
                </div>
              </div>
            ),
          )}
        </div>
      </div>
    </AyahRoot>
  );
}

const channel = new MessageChannel();
let wake = () => {};
channel.port1.onmessage = () => wake();
/** Resolves after the next frame is painted: a task queued from its animation frame callback. */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      wake = resolve;
      channel.port2.postMessage(0);
    });
  });
}

/** Resolves once the last message in `host` holds `marker`. */
function whenShown(host: HTMLElement, marker: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`the last message never showed ${marker}`));
    }, 300_000);
    const check = () => {
      const messages = host.querySelectorAll('[data-slot="chat-message"], [data-bench-message]');
      if (!messages[messages.length - 1]?.textContent?.includes(marker)) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const observer = new MutationObserver(check);
    observer.observe(host, { childList: true, subtree: true, characterData: true });
  });
}

function signature(host: HTMLElement): string[] {
  const normal = (html: string) => html.replace(/\s+/g, ' ').trim();
  return [...host.querySelectorAll('[data-slot="chat-message"], [data-bench-message]')].map(
    (message) => {
      const markdown = message.querySelector('[data-slot="markdown"]');
      if (markdown) return normal(markdown.innerHTML);
      // A question: its text, without the screen reader's "You said: ".
      return normal(message.textContent ?? '').replace(/^You said: /, '');
    },
  );
}

async function open(renderer: Renderer, count: number, tag: string): Promise<OpenStats> {
  const messages = sessionMessages(count, tag);
  const marker = replyMarker(tag, (count - 1) >> 1);
  const adapter = fakeChatAdapter({
    getSession: async (id) => sessionDetail(id, messages, 'Quadratic equations'),
  });
  const host = document.createElement('div');
  host.style.cssText = 'width: 1000px; height: 800px;';
  document.getElementById('stage')!.append(host);
  const root = createRoot(host);
  const shown = whenShown(host, marker);
  const start = performance.now();
  root.render(
    renderer === 'ours' ? (
      <Chat adapter={adapter} sessionId="bench" store={memoryChatStore()} />
    ) : (
      <NaiveThread messages={messages} />
    ),
  );
  await shown;
  await afterPaint();
  const ms = performance.now() - start;
  const dom = signature(host);
  root.unmount();
  host.remove();
  return { ms, mounted: dom.length, dom };
}

(window as unknown as { bench: { ready: Promise<void>; open: typeof open } }).bench = {
  ready: loadKatex().then(() => undefined),
  open,
};
