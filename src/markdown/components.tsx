import type { ComponentProps, ReactElement } from 'react';
import type { Components, ExtraProps } from 'react-markdown';

import { VisuallyHidden } from '../ui/visually-hidden';
import { CodeBlock } from './code';
import { type HastNode, textOf } from './hast';
import { MathSource } from './math';
import { useScrollable } from './scroll';
import { useSuffix } from './suffix';

/**
 * How each element of a rendered reply looks and behaves: typography in `ay:` utilities (colours
 * are theme tokens, so light and dark both read), links that open a new tab and say so, code blocks
 * with a copy button, and formulas shown as source until KaTeX has loaded.
 */

type Props<T extends keyof React.JSX.IntrinsicElements> = ComponentProps<T> & ExtraProps;

function element<T extends keyof React.JSX.IntrinsicElements>(tag: T, className: string) {
  function Element({ node: _node, ...props }: Props<T>) {
    const Tag = tag as React.ElementType;
    return <Tag className={className} {...props} />;
  }
  Element.displayName = `Markdown.${tag}`;
  return Element;
}

/**
 * An element whose text may end a streaming block: it shows the block's plain-text suffix, when
 * the suffix goes at its end (see markdown-stream).
 */
function textElement<T extends 'p' | 'li' | 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6'>(
  tag: T,
  className: string,
) {
  function TextElement({ node, children, ...props }: Props<T>) {
    const suffix = useSuffix(node as HastNode | undefined);
    const Tag = tag as React.ElementType;
    return (
      <Tag className={className} {...props}>
        {children}
        {suffix}
      </Tag>
    );
  }
  TextElement.displayName = `Markdown.${tag}`;
  return TextElement;
}

const heading = 'ay:mt-5 ay:mb-2 ay:font-semibold ay:text-foreground';

function Link({ node: _node, href, children, ...props }: Props<'a'>) {
  // An address of a scheme the spec does not allow arrives without href: it stays inert text.
  if (!href) return <span data-slot="inert-link">{children}</span>;
  return (
    <a
      {...props}
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="ay:font-medium ay:text-primary ay:underline ay:underline-offset-2 ay:hover:text-primary-hover ay:focus-visible:outline-2 ay:focus-visible:outline-ring"
    >
      {children}
      <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
    </a>
  );
}

/** Whether `src` loads from the page's own origin (relative, or the same scheme, host and port). */
function ownOrigin(src: string): boolean {
  if (typeof window === 'undefined') return false;
  try {
    return new URL(src, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

function hostOf(src: string): string {
  try {
    return new URL(src, typeof window === 'undefined' ? undefined : window.location.href).host;
  } catch {
    return src;
  }
}

/**
 * An image of the page's own origin; any other is a link the student may choose to open. A reply can
 * be steered (prompt injection) into an image whose address carries the conversation away the moment
 * it loads, with no click; the app's CSP `img-src` refuses remote hosts too.
 */
function Image({ node: _node, src, alt, ...props }: Props<'img'>) {
  if (!src || typeof src !== 'string') return alt ? <span>{alt}</span> : null;
  if (!ownOrigin(src))
    return (
      <span data-slot="image-link">
        <Link href={src}>{`Image: ${alt || hostOf(src)}`}</Link>
      </span>
    );
  return (
    <img
      {...props}
      src={src}
      alt={alt ?? ''}
      loading="lazy"
      className="ay:my-3 ay:h-auto ay:max-w-full ay:rounded-md"
    />
  );
}

/** Inline code, or (from remark-math) an inline formula not yet rendered by KaTeX. */
function Code({ node: _node, className, children, ...props }: Props<'code'>) {
  if (className?.includes('math-inline')) {
    return <MathSource display={false}>{children}</MathSource>;
  }
  return (
    <code
      {...props}
      className="ay:rounded-sm ay:bg-muted ay:px-1 ay:py-0.5 ay:font-mono ay:text-[0.9em]"
    >
      {children}
    </code>
  );
}

/** A fenced code block, or display math not yet rendered by KaTeX. */
function Pre({ node }: Props<'pre'>) {
  const suffix = useSuffix(node as HastNode | undefined, true) ?? '';
  const code = node?.children.find((child) => child.type === 'element');
  const classes = code?.type === 'element' ? code.properties.className : undefined;
  const names = Array.isArray(classes) ? classes.map(String) : [];
  const text = textOf(code as HastNode | undefined);
  if (names.includes('language-math')) return <MathSource display>{text}</MathSource>;
  const language = names.find((name) => name.startsWith('language-'))?.slice('language-'.length);
  return <CodeBlock language={language} code={text.replace(/\n$/, '') + suffix} />;
}

/** A formula typeset by the KaTeX plugins: the same elements every render, which React skips. */
function Span({ node, ...props }: Props<'span'>) {
  const formula = (node as HastNode | undefined)?.data?.formula;
  return formula ? (formula as ReactElement) : <span {...props} />;
}

const scrollFocus = 'ay:focus-visible:outline-2 ay:focus-visible:outline-ring';

function Table({ node: _node, ...props }: Props<'table'>) {
  const [attach, tabIndex] = useScrollable<HTMLDivElement>();
  return (
    <div
      ref={attach}
      data-slot="table"
      tabIndex={tabIndex}
      className={`ay:my-3 ay:overflow-x-auto ay:rounded-md ay:border ay:border-border ${scrollFocus}`}
    >
      <table {...props} className="ay:w-full ay:border-collapse ay:text-sm" />
    </div>
  );
}

/** The scrolling frame the KaTeX plugins put around display math (see markdown-katex). */
function Div({ node: _node, ...props }: Props<'div'>) {
  const [attach, tabIndex] = useScrollable<HTMLDivElement>();
  return (
    <div
      {...props}
      ref={attach}
      tabIndex={tabIndex}
      className={`ay:overflow-x-auto ay:overflow-y-hidden ${scrollFocus}`}
    />
  );
}

export const markdownComponents: Components = {
  a: Link,
  img: Image,
  code: Code,
  pre: Pre,
  table: Table,
  div: Div,
  span: Span,
  p: textElement('p', 'ay:my-3'),
  // A reply's headings sit one level under the page's own, so a page keeps its one h1 (and a
  // reply's `#` does not outrank the page's title): `#` is an h2, `##` an h3, …, `#####` and
  // `######` both h6. Each keeps the size of its markdown level.
  h1: textElement('h2', `${heading} ay:text-xl`),
  h2: textElement('h3', `${heading} ay:text-lg`),
  h3: textElement('h4', `${heading} ay:text-base`),
  h4: textElement('h5', `${heading} ay:text-base`),
  h5: textElement('h6', `${heading} ay:text-sm`),
  h6: textElement('h6', `${heading} ay:text-sm ay:text-muted-foreground`),
  ul: element('ul', 'ay:my-3 ay:list-disc ay:ps-6 ay:[&>li+li]:mt-1 ay:[&_ul,&_ol]:my-1'),
  ol: element('ol', 'ay:my-3 ay:list-decimal ay:ps-6 ay:[&>li+li]:mt-1 ay:[&_ul,&_ol]:my-1'),
  li: textElement('li', 'ay:ps-1 ay:marker:text-muted-foreground ay:[&>p]:my-1'),
  blockquote: element(
    'blockquote',
    'ay:my-3 ay:border-s-4 ay:border-border ay:ps-4 ay:text-muted-foreground',
  ),
  hr: element('hr', 'ay:my-5 ay:border-border'),
  th: element(
    'th',
    'ay:border-b ay:border-s ay:border-border ay:bg-muted ay:px-3 ay:py-2 ay:text-start ay:font-semibold ay:first:border-s-0',
  ),
  td: element(
    'td',
    'ay:border-t ay:border-s ay:border-border ay:px-3 ay:py-2 ay:align-top ay:first:border-s-0',
  ),
};
