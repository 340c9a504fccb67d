import { Suspense } from 'react';

import type { MarkdownProps } from '../markdown';
import { lazyComponent } from '../ui/lazy-component';
import { TypingIndicator } from './TypingIndicator';

/**
 * The markdown renderer (react-markdown, remark, the streaming block cutter: about half the chat's
 * JavaScript) is its own chunk, so a portal's first load of the chat does not wait for it. The chat
 * starts fetching it before a reply can arrive (Chat.tsx); KaTeX still loads on the first formula.
 */
/** `preloadMarkdown` starts fetching the renderer (a failure shows replies as text). */
const [Markdown, preloadMarkdown, markdownReady] = lazyComponent(
  () => import('../markdown'),
  'Markdown',
);
export { preloadMarkdown };

/**
 * Loads the reply renderer; once it resolves, a reply mounted after renders at once, without a
 * frame of plain text (a story, a screenshot). A failure resolves too: replies then show as text.
 */
export function loadReplyRenderer(): Promise<void> {
  return markdownReady().catch(() => undefined);
}

/**
 * A reply rendered by `ayah-coach/markdown`. Until the renderer has loaded, a streaming reply keeps
 * the typing dots (half-written markup such as `$n^2` is never shown) and a finished one (a restored
 * conversation shown at once) shows its text as it is; once it has, the DOM is exactly the renderer's.
 * A reply mounted after the renderer has loaded (preloaded) renders it at once (`lazyComponent`).
 */
export function ReplyMarkdown(props: MarkdownProps) {
  return (
    <Suspense
      fallback={
        props.streaming ? (
          <TypingIndicator />
        ) : (
          <p data-slot="markdown-loading" className="ay:whitespace-pre-wrap ay:break-words">
            {props.content}
          </p>
        )
      }
    >
      <Markdown {...props} />
    </Suspense>
  );
}
