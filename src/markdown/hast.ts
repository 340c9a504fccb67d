/**
 * Small readings of the HTML syntax tree (hast) that markdown becomes, shared by the eager
 * components and the lazily loaded KaTeX plugins.
 */

/** The parts of a hast node these helpers read. */
export interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
  data?: Record<string, unknown>;
  position?: { end?: { offset?: number } };
}

/** The concatenated text inside a node. */
export function textOf(node: HastNode | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return node.children?.map(textOf).join('') ?? '';
}

function classesOf(node: HastNode | undefined): unknown[] {
  const classes = node?.properties?.className;
  return Array.isArray(classes) ? classes : [];
}

/**
 * For a node rehype-katex would typeset, found as rehype-katex finds it, its mode (`D`isplay or
 * `I`nline) and source as one key; else null. remark-math gives `code.math-inline` and
 * `pre > code.math-display`, a ```math fence `pre > code.language-math`: a `pre` holding
 * `code.language-math` is display math, replaced whole.
 */
export function formulaKey(node: HastNode): string | null {
  if (node.type !== 'element') return null;
  if (node.tagName === 'pre') {
    const math = node.children?.some(
      (child) => child.tagName === 'code' && classesOf(child).includes('language-math'),
    );
    return math ? `D${textOf(node)}` : null;
  }
  const classes = classesOf(node);
  const display = classes.includes('math-display');
  if (!display && !classes.includes('math-inline') && !classes.includes('language-math')) {
    return null;
  }
  return `${display ? 'D' : 'I'}${textOf(node)}`;
}

/** Whether a node is one KaTeX rendered in display mode. */
export function isDisplayMath(node: HastNode): boolean {
  return classesOf(node).includes('katex-display');
}

/** The frame {@link rehypeDisplayMathFrame} puts around display math. */
export function displayMathFrame(child: HastNode): HastNode {
  return {
    type: 'element',
    tagName: 'div',
    properties: { dataSlot: 'display-math' },
    children: [child],
  };
}

/**
 * Puts each display formula KaTeX rendered in a `div` (markdown renders no other), which the `div`
 * component makes a frame that scrolls sideways when the formula is wider than the reply, taking a
 * tab stop only then.
 */
export function rehypeDisplayMathFrame() {
  return function visit(node: HastNode): void {
    node.children?.forEach((child, index, siblings) => {
      if (isDisplayMath(child)) siblings[index] = displayMathFrame(child);
      else visit(child);
    });
  };
}
