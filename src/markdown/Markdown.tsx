import { Fragment, useState } from 'react';

import { cn } from '../lib/cn';
import { useKatexPlugins } from './math';
import { markdownRootClass, StreamBlock } from './render';
import { StreamView } from './stream';

// Between top-level blocks react-markdown puts a line break: so do we, for the same DOM.
const SEPARATOR = '\n';

export interface MarkdownProps {
  /** The markdown text (an assistant reply, possibly still streaming). */
  content: string;
  /**
   * True while the text is still growing: the unfinished last block is healed or held back, so no
   * formula, table or code fence shows half-built or as raw markup.
   * @default false
   */
  streaming?: boolean;
  /** Classes for the element holding the rendered reply. */
  className?: string;
}

/**
 * An assistant reply rendered as markdown: GFM tables, code blocks with a copy button, math in any
 * notation (KaTeX, loaded on the first formula), links opening in a new tab, no raw HTML.
 *
 * Fast while streaming: the reply is cut into top-level blocks as it grows, a finished block
 * renders once, and only the last block renders again on each chunk (usually without even
 * parsing it again), so the work over a whole reply is linear in its length.
 */
export function Markdown({ content, streaming = false, className }: MarkdownProps) {
  // Not React state: a cache of how the growing text was cut. The same text always renders the
  // same way, whatever the cache holds, so rendering stays pure.
  const [view] = useState(() => new StreamView());
  const { blocks, tail } = view.update(content, streaming);
  const katex = useKatexPlugins();
  return (
    <div data-slot="markdown" className={cn(markdownRootClass, className)}>
      {blocks.map((source, index) => (
        // Keyed by position: the unfinished block keeps its key once it is finished.
        <Fragment key={index}>
          {index > 0 && SEPARATOR}
          <StreamBlock source={source} suffix="" katex={katex} />
        </Fragment>
      ))}
      {tail && (
        <Fragment key={blocks.length}>
          {blocks.length > 0 && SEPARATOR}
          <StreamBlock source={tail.base} suffix={tail.suffix} katex={katex} />
        </Fragment>
      )}
    </div>
  );
}
