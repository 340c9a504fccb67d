/**
 * The heavy half of math rendering, loaded by `loadKatex()` only once a formula appears: KaTeX,
 * rehype-katex, and KaTeX's stylesheet. The stylesheet is imported here, so the host's bundler
 * emits it (and the fonts it references) with this chunk and loads it with it. The built package
 * imports a copy instead (dist/katex.css, scripts/build-css.mjs) whose one rule outside KaTeX's own
 * `.katex*` classes, a counter reset on `body`, is scoped to the Ayah root: a portal's page is left alone.
 */
import 'katex/dist/katex.min.css';

import type { Nodes } from 'hast';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import type { ReactElement } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import type { Options as MarkdownOptions } from 'react-markdown';
import rehypeKatex, { type Options } from 'rehype-katex';

import {
  displayMathFrame,
  formulaKey,
  type HastNode,
  isDisplayMath,
  rehypeDisplayMathFrame,
} from './hast';

type Plugins = NonNullable<MarkdownOptions['rehypePlugins']>;

/**
 * rehype-katex's options. A formula KaTeX cannot parse is shown as its source in our destructive
 * colour (spec section 8); the colour is a variable, so a portal's theme and the dark scheme apply.
 * (rehype-katex sets `throwOnError` itself: it tries, then renders the error without throwing.)
 */
export const KATEX_OPTIONS: Options = { errorColor: 'var(--ay-color-destructive)' };

/** rehype-katex as is, each display formula in its frame: what {@link katexPlugins} renders like. */
export const plainKatexPlugins: Plugins = [[rehypeKatex, KATEX_OPTIONS], rehypeDisplayMathFrame];

const katex = (rehypeKatex as (options: Options) => (tree: HastNode, file: unknown) => void)(
  KATEX_OPTIONS,
);

/** A typeset formula's top-level node: the React elements rendering it, and whether it is framed. */
interface Typeset {
  element: ReactElement;
  framed: boolean;
}

/** Formulas typeset lately, by mode and source, least recently used first. */
const typesetFormulas = new Map<string, Typeset[]>();
const CACHE_SIZE = 500;

/**
 * rehype-katex, with each formula typeset once: while a reply streams, its unfinished paragraph
 * is rendered again on every chunk, and typesetting its formulas again — then walking and
 * reconciling their hundreds of nodes — would be most of the work.
 *
 * Each formula goes through rehype-katex itself, alone in a tree of its own, and becomes React
 * elements through hast-util-to-jsx-runtime with react-markdown's own settings, so it renders
 * exactly as rehype-katex inside react-markdown would. In the tree it leaves a `span` carrying
 * those elements; the `span` component returns them, the same objects every time, so React skips
 * them (markdown itself renders no spans). Display formulas keep their frame in the tree, where
 * the `div` component renders it.
 */
function rehypeKatexCached() {
  return function transform(tree: HastNode, file: unknown): void {
    const children = tree.children ?? [];
    for (let index = 0; index < children.length; index++) {
      const key = formulaKey(children[index]!);
      if (key === null) {
        transform(children[index]!, file);
        continue;
      }
      const nodes = typesetOnce(key, children[index]!, file).map(({ element, framed }) => {
        const span: HastNode = {
          type: 'element',
          tagName: 'span',
          properties: {},
          children: [],
          data: { formula: element },
        };
        return framed ? displayMathFrame(span) : span;
      });
      children.splice(index, 1, ...nodes);
      index += nodes.length - 1;
    }
  };
}

function typesetOnce(key: string, node: HastNode, file: unknown): Typeset[] {
  let typeset = typesetFormulas.get(key);
  if (typeset) typesetFormulas.delete(key);
  else {
    const root: HastNode = { type: 'root', children: [node] };
    katex(root, file);
    typeset = root.children!.map((child) => ({
      element: toJsxRuntime(child as Nodes, jsxOptions) as ReactElement,
      framed: isDisplayMath(child),
    }));
    if (typesetFormulas.size >= CACHE_SIZE) {
      typesetFormulas.delete(typesetFormulas.keys().next().value!);
    }
  }
  typesetFormulas.set(key, typeset);
  return typeset;
}

// react-markdown's settings (its `post`), less components: KaTeX's output uses none.
const jsxOptions = { Fragment, jsx, jsxs, ignoreInvalidStyle: true, passKeys: true } as const;

export const katexPlugins: Plugins = [rehypeKatexCached];
