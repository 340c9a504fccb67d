import {
  closesFence,
  codeFenceOpen,
  type Fence,
  type Line,
  lineKind,
  mathFenceOpen,
  readLine,
} from './markdown-lines';
import { normalizeSegment } from './math-segment';

/**
 * Rewrites an assistant reply so remark-math (with single-dollar inline math) renders what the
 * model meant (spec section 5, "Rendering"):
 *
 * - `\[ .. \]` becomes display math: a `$$` block when it fills its lines, else `$$..$$` inline;
 * - `\( .. \)` becomes inline `$..$`;
 * - a line that is only `[ .. ]` holding TeX, and `( .. )` holding a TeX command with the spaces
 *   a lost `\( \)` leaves, are the same notations with their backslashes lost;
 * - `$$ .. $$` filling a line, and `$$` fences carrying text after the opening `$$` (which
 *   remark-math would drop), become proper `$$` blocks;
 * - every `$` that is not part of math is escaped, so "$5 and $10" stays money.
 *
 * Fenced code, inline code spans and autolinks are never changed. Indented code blocks are not
 * recognised (a four-space indent is far more often a nested list item in a reply), so a `$`
 * there gains a backslash. The result is a fixed point — normalising it again changes nothing —
 * and the work is near-linear in the input's length.
 */
export function normalizeMath(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n').map(readLine);
  const nextCloser = mathCloserIndex(lines);
  const out: string[] = [];
  let segment: Line[] = [];
  const flush = (): void => {
    if (segment.length > 0) out.push(normalizeSegment(segment));
    segment = [];
  };

  for (let i = 0; i < lines.length;) {
    const line = lines[i]!;
    const code = codeFenceOpen(line.content);
    if (code) {
      flush();
      const end = codeFenceEnd(lines, i, code);
      out.push(...lines.slice(i, end + 1).map((l) => l.text));
      i = end + 1;
      continue;
    }
    const math = mathFenceOpen(line.content);
    const end = math ? mathFenceEnd(lines, nextCloser, i, math.fence) : -1;
    if (math && end !== -1) {
      flush();
      // remark-math drops text after an opening `$$`; move it into the block.
      const fence = line.text.slice(0, line.start) + '$'.repeat(math.fence.size);
      const opener = math.meta ? `${fence}\n${line.cont}${math.meta}` : line.text;
      out.push(opener, ...lines.slice(i + 1, end + 1).map((l) => l.text));
      i = end + 1;
      continue;
    }
    const kind = lineKind(line.content);
    const first = segment[0];
    if (kind !== 'text' || line.list || (first && first.quotes !== line.quotes)) flush();
    if (kind === 'blank') out.push(line.text);
    else segment.push(line);
    // Headings and table rows hold their inline content to themselves.
    if (kind === 'heading' || kind === 'table') flush();
    i++;
  }
  flush();
  return out.join('\n');
}

/**
 * The last line of a code block opened at `open`: its closing fence, the line before a drop in
 * blockquote depth (the block ends with its container), or the last line when never closed —
 * a reply still streaming in shows its code as code.
 */
function codeFenceEnd(lines: readonly Line[], open: number, fence: Fence): number {
  const quotes = lines[open]!.quotes;
  for (let j = open + 1; j < lines.length; j++) {
    const line = lines[j]!;
    if (line.quotes < quotes) return j - 1;
    if (closesFence(line.content, fence)) return j;
  }
  return lines.length - 1;
}

/** The closing line of a `$$` fence opened at `open`, or -1 when unclosed (then it is text). */
function mathFenceEnd(
  lines: readonly Line[],
  nextCloser: Int32Array,
  open: number,
  fence: Fence,
): number {
  const quotes = lines[open]!.quotes;
  let j = nextCloser[open + 1] ?? -1;
  while (j !== -1) {
    const line = lines[j]!;
    if (line.quotes === quotes && closesFence(line.content, fence)) return j;
    j = nextCloser[j + 1] ?? -1;
  }
  return -1;
}

/** For each line, the next line at or after it that could close a `$$` fence, or -1. */
function mathCloserIndex(lines: readonly Line[]): Int32Array {
  const next = new Int32Array(lines.length + 1).fill(-1);
  for (let j = lines.length - 1; j >= 0; j--) {
    next[j] = closesFence(lines[j]!.content, { char: '$', size: 2 }) ? j : next[j + 1]!;
  }
  return next;
}
