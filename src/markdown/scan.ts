import {
  closesFence,
  codeFenceOpen,
  type Fence,
  type Line,
  mathFenceOpen,
  readLine,
} from '../lib/markdown-lines';

/**
 * A line-by-line reading of markdown that knows where a top-level block may end: the one state
 * machine behind the block splitter and the streaming tail healer.
 *
 * It reads fences exactly as `normalizeMath` does (same helpers, same rules), so a block it cuts
 * out normalises to the same text as it would inside the whole reply, and so renders the same.
 */

/** A construct that runs across lines (blank ones included) until its closing line. */
export type Open =
  | { kind: 'code'; fence: Fence; quotes: number; at: number }
  | { kind: 'math'; fence: Fence; quotes: number; at: number }
  | { kind: 'html'; end: RegExp; at: number };

/**
 * What a line is to the block structure: inside a fence or HTML block (closing line included), blank,
 * the first line of a new top-level block, or a line that continues the current one.
 */
export type LineEvent = 'inside' | 'blank' | 'start' | 'continue';

// CommonMark HTML blocks 1–5 run across blank lines until their end marker; skipHtml drops them,
// but cutting one in two would let its second half render as text.
const HTML_BLOCKS: readonly [RegExp, RegExp][] = [
  [/^<(?:pre|script|style|textarea)(?:[\s>]|$)/i, /<\/(?:pre|script|style|textarea)>/i],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<![A-Za-z]/, />/],
  [/^<!\[CDATA\[/, /\]\]>/],
];

const TOP_LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
// A link reference or footnote definition: it can be used from any block, so a reply holding one
// is rendered whole.
const DEFINITION = /^\[[^\]]+\]:/;

/** The key of a `$$` fence that never closes: later openers of the same kind cannot close either. */
export function mathKey(quotes: number, size: number): string {
  return `${quotes}:${size}`;
}

export class LineScanner {
  /** The fence or HTML block the last line left open, if any. */
  open: Open | null = null;
  /** The last line read (container prefix and content). */
  line: Line = readLine('');
  /** Whether any line read so far is a link reference or footnote definition. */
  definitions = false;
  /** Whether the current block has a content line yet. */
  private content = false;
  private blank = false;
  private list = false;

  /**
   * @param unclosedMath `$$` fences known never to close (see {@link mathKey}): their opening line
   *   is read as text, as `normalizeMath` reads it. While streaming nothing is known, so every `$$`
   *   opener is taken to be a fence that has not closed yet.
   */
  constructor(private readonly unclosedMath: ReadonlySet<string> = new Set()) {}

  clone(): LineScanner {
    const copy = new LineScanner(this.unclosedMath);
    Object.assign(copy, this);
    return copy;
  }

  /** Reads the line `text` (without its newline), which starts at offset `at`. */
  feed(text: string, at: number): LineEvent {
    const line = readLine(text);
    this.line = line;
    const open = this.open;
    if (open?.kind === 'code') {
      // A fence inside a blockquote ends with the blockquote.
      if (line.quotes >= open.quotes) {
        if (closesFence(line.content, open.fence)) this.open = null;
        return 'inside';
      }
      this.open = null;
    } else if (open?.kind === 'math') {
      if (line.quotes === open.quotes && closesFence(line.content, open.fence)) this.open = null;
      return 'inside';
    } else if (open?.kind === 'html') {
      if (open.end.test(text)) this.open = null;
      return 'inside';
    }

    if (text.trim() === '') {
      this.blank = true;
      return 'blank';
    }
    // After a blank line, an indented line or a further list item may still belong to the block
    // (a loose list, an item's second paragraph, indented code): keep them together.
    const continues = /^[ \t]/.test(text) || (this.list && TOP_LIST_ITEM.test(text));
    const event = this.content && this.blank && !continues ? 'start' : 'continue';
    if (event === 'start') this.list = false;
    this.content = true;
    this.blank = false;
    if (TOP_LIST_ITEM.test(text)) this.list = true;
    if (DEFINITION.test(line.content)) this.definitions = true;
    this.open = this.opens(line, at);
    return event;
  }

  private opens(line: Line, at: number): Open | null {
    const code = codeFenceOpen(line.content);
    if (code) return { kind: 'code', fence: code, quotes: line.quotes, at };
    const math = mathFenceOpen(line.content);
    if (math && !this.unclosedMath.has(mathKey(line.quotes, math.fence.size))) {
      return { kind: 'math', fence: math.fence, quotes: line.quotes, at };
    }
    for (const [start, end] of HTML_BLOCKS) {
      if (!start.test(line.content)) continue;
      const rest = line.content.slice(1);
      return end.test(rest) ? null : { kind: 'html', end, at };
    }
    return null;
  }
}
