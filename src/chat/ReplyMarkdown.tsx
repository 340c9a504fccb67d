import { lazy, Suspense } from 'react';
import type { MarkdownProps } from '../markdown';

/**
 * The markdown renderer (react-markdown, remark, the streaming block cutter: about half the chat's
 * JavaScript) is its own chunk, so a portal's first load of the chat does not wait for it. The chat
 * starts fetching it before a reply can arrive (Chat.tsx); KaTeX still loads on the first formula.
 */
const loadMarkdown = () => import('../markdown');

/** Starts fetching the renderer (a failure shows replies as text). */
export const preloadMarkdown = () => void loadMarkdown().catch(() => {});

const Markdown = lazy(() => loadMarkdown().then(({ Markdown }) => ({ default: Markdown })));

/**
 * A reply rendered by `ayah-coach/markdown`. Until the renderer has loaded (a restored conversation
 * shown at once), the reply's text shows as it is; once it has, the DOM is exactly the renderer's.
 */
export function ReplyMarkdown(props: MarkdownProps) {
  return (
    <Suspense
      fallback={
        <p data-slot="markdown-loading" className="ay:whitespace-pre-wrap ay:break-words">
          {props.content}
        </p>
      }
    >
      <Markdown {...props} />
    </Suspense>
  );
}
