import { memo, useMemo } from 'react';
import ReactMarkdown, { type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';

import { safeUrl } from '../lib/links';
import { normalizeMath } from '../lib/math';
import { markdownComponents } from './components';
import type { KatexPlugins } from './math';
import { SuffixContext } from './suffix';

// remark-math is small and stays eager: it is what tells a formula from text, so that a formula
// renders as its source (never as raw `$` markup) until KaTeX, the heavy part, has loaded.
const remarkPlugins: Options['remarkPlugins'] = [remarkGfm, remarkMath];
const noPlugins: KatexPlugins = [];

/**
 * KaTeX inside Ayah's scope. The scoped reset (src/styles/preflight.css) has the specificity of some
 * of KaTeX's own rules, so which wins would depend on the order a host page loads the stylesheets
 * in; and it makes every element border-box, colours borders and middle-aligns svg, where KaTeX's
 * layout assumes the browser's defaults. One more class settles it, with KaTeX's own values.
 */
const katexInScope = [
  // Raw: the class must hold `\_` (an underscore, not a space) both in the source and at run time.
  String.raw`ay:[&_.katex]:[font:normal_1.21em/1.2_KaTeX\_Main,Times_New_Roman,serif]`,
  'ay:[&_.katex]:relative ay:[&_.katex]:indent-0 ay:[&_.katex]:[text-rendering:auto]',
  'ay:[&_.katex-display]:block ay:[&_.katex-display]:my-[1em] ay:[&_.katex-display]:text-center',
  'ay:[&_.katex_:where(*)]:border-current ay:[&_.katex_svg]:align-baseline',
  'ay:[&_.katex_:where(:not(.fbox,.fcolorbox,.angl))]:box-content!',
];

/**
 * The classes of the element holding a rendered reply's blocks. Each block is its own stacking
 * context (`isolation`, which changes nothing else), so Chromium paints it as a layer of its own and
 * replays a finished block's painting as a whole, instead of walking it again on every frame of a
 * streaming reply below it.
 */
export const markdownRootClass = [
  'ay:min-w-0 ay:break-words ay:[&>:first-child]:mt-0 ay:[&>:last-child]:mb-0 ay:[&>*]:isolate',
  ...katexInScope,
].join(' ');

export interface MarkdownBlockProps {
  /** Markdown with its math notations normalised (`normalizeMath`). */
  markdown: string;
  /** KaTeX's rehype plugins once loaded; until then formulas show as source. */
  katex: KatexPlugins | null;
}

/**
 * Markdown rendered: GFM and math, no raw HTML, only the spec's URL schemes, our components.
 * Memoised on its text, so a finished block renders once.
 */
export const MarkdownBlock = memo(function MarkdownBlock({ markdown, katex }: MarkdownBlockProps) {
  return (
    <ReactMarkdown
      remarkPlugins={remarkPlugins}
      rehypePlugins={katex ?? noPlugins}
      components={markdownComponents}
      urlTransform={safeUrl}
      skipHtml
    >
      {markdown}
    </ReactMarkdown>
  );
});

export interface StreamBlockProps {
  /** One block of a reply, as the model wrote it. */
  source: string;
  /** Plain text that arrived after `source`, shown at its end without parsing again. */
  suffix: string;
  katex: KatexPlugins | null;
}

/**
 * One block of a reply. While its suffix grows, only the few components it ends in render again:
 * the parsed block is memoised and the suffix reaches them through context.
 */
export const StreamBlock = memo(function StreamBlock({ source, suffix, katex }: StreamBlockProps) {
  const markdown = useMemo(() => normalizeMath(source), [source]);
  const value = useMemo(
    () => (suffix === '' ? null : { offset: markdown.length, text: suffix }),
    [markdown, suffix],
  );
  return (
    <SuffixContext.Provider value={value}>
      <MarkdownBlock markdown={markdown} katex={katex} />
    </SuffixContext.Provider>
  );
});
