/**
 * Line-level reading of markdown for `normalizeMath`: container prefixes, code fences and `$$`
 * fences. Not a markdown parser; just enough structure to know which lines are code, which are
 * display math already, and where a paragraph can be cut.
 */

/** One source line and its container prefix (blockquote markers, list markers, indentation). */
export interface Line {
  text: string;
  /** Index in `text` where the content starts, after the prefix and any indentation. */
  start: number;
  /** The content: `text` after the prefix. */
  content: string;
  /** Whether the prefix opens a list item. */
  list: boolean;
  /** How many `>` the prefix holds. */
  quotes: number;
  /** The prefix a line continuing this block needs: the same, with list markers as spaces. */
  cont: string;
}

export type LineKind = 'blank' | 'heading' | 'table' | 'text';

export interface Fence {
  char: '`' | '~' | '$';
  size: number;
}

/** Splits a line into its container prefix and content. */
export function readLine(text: string): Line {
  let i = 0;
  let list = false;
  let quotes = 0;
  let cont = '';
  for (;;) {
    let j = i;
    while (text[j] === ' ' || text[j] === '\t') j++;
    const marker = text[j] === '>' ? 1 : listMarkerLength(text, j);
    if (marker === 0) {
      cont += text.slice(i, j);
      i = j;
      break;
    }
    if (text[j] === '>') {
      quotes++;
      cont += text.slice(i, j) + '>';
    } else {
      list = true;
      cont += text.slice(i, j) + ' '.repeat(marker);
    }
    i = j + marker;
  }
  return { text, start: i, content: text.slice(i), list, quotes, cont };
}

/** `-`, `*`, `+` or 1–9 digits with `.` or `)`, followed by a space, a tab or the line's end. */
function listMarkerLength(text: string, at: number): number {
  let end = at;
  const c = text[at];
  if (c === '-' || c === '*' || c === '+') end = at + 1;
  else {
    while (end - at < 9 && isDigit(text[end])) end++;
    if (end === at || (text[end] !== '.' && text[end] !== ')')) return 0;
    end++;
  }
  const after = text[end];
  return after === undefined || after === ' ' || after === '\t' ? end - at : 0;
}

/** Blank, an ATX heading, a table row, or other text. */
export function lineKind(content: string): LineKind {
  if (content.trim() === '') return 'blank';
  if (/^#{1,6}(?:[ \t]|$)/.test(content)) return 'heading';
  if (content.startsWith('|')) return 'table';
  return 'text';
}

/** The code fence a line opens (three or more backticks or tildes), or null. */
export function codeFenceOpen(content: string): Fence | null {
  const char = content[0];
  if (char !== '`' && char !== '~') return null;
  const size = runLength(content, 0);
  if (size < 3) return null;
  // A backtick fence's info string cannot hold a backtick (then it is an inline code span).
  if (char === '`' && content.includes('`', size)) return null;
  return { char, size };
}

/** The `$$` fence a line opens and the text after it (its "meta"), or null. */
export function mathFenceOpen(content: string): { fence: Fence; meta: string } | null {
  if (!content.startsWith('$$')) return null;
  const size = runLength(content, 0);
  const meta = content.slice(size);
  // With another `$` on the line it is inline math (`$$x$$`), not a fence.
  return meta.includes('$') ? null : { fence: { char: '$', size }, meta: meta.trim() };
}

/** Whether a line closes `fence`: a run of its character at least as long, then only spaces. */
export function closesFence(content: string, fence: Fence): boolean {
  if (content[0] !== fence.char) return false;
  const size = runLength(content, 0);
  return size >= fence.size && content.slice(size).trim() === '';
}

/** How many times the character at `at` repeats from there (0 past the end). */
export function runLength(text: string, at: number): number {
  const c = text[at];
  if (c === undefined) return 0;
  let end = at;
  while (text[end] === c) end++;
  return end - at;
}

/** Whether `c` is an ASCII digit. */
export function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}
