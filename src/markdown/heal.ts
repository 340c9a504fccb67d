import { type Line, lineKind } from '../lib/markdown-lines';
import { closeEmphasis, pendingCut } from './inline';
import { LineScanner } from './scan';

/**
 * What to show of a streaming reply's unfinished last block, so that nothing appears half-built or
 * as raw markup:
 *
 * - an open ``` fence shows as a code block of what has arrived (its opening line once complete);
 * - an open `$$` block is held back until it closes;
 * - a table row that may be a header is held back until its delimiter row arrives, and a partial
 *   row until its line ends;
 * - inline math in any notation, code spans, links and autolinks are held back until they close;
 * - open emphasis is closed at the end (bold text streams in bold);
 * - a last line of bare markers (`-`, `##`, `1.`) waits for its text.
 *
 * Pure, and linear in the length of the tail.
 */
export function healTail(tail: string): HealedTail {
  const lines = readLines(tail);
  const last = lines.at(-1);
  if (!last) return { text: '', code: false };
  const open = last.open;
  if (open?.kind === 'html') return { text: tail, code: false };
  if (open?.kind === 'code' && (open.at !== last.at || last.complete)) {
    // A partial line of backticks or tildes may be the closing fence: it is not code.
    const fence = !last.complete && /^[`~]+\s*$/.test(last.line.content);
    return { text: fence ? tail.slice(0, last.at) : tail, code: true };
  }
  // A `$$` closing line still arriving may yet turn out not to close (`$$ x`).
  const before = lines.at(-2)?.open;
  const closing = !last.complete && !open && before?.kind === 'math' ? before : null;
  // An open `$$` block, or a code fence whose opening line is still arriving, waits.
  const end = (open ?? closing)?.at ?? tail.length;
  return { text: healText(tail, lines, end), code: false };
}

/** What to show of an unfinished block, and whether it ends inside an open code fence. */
export interface HealedTail {
  text: string;
  code: boolean;
}

function healText(tail: string, lines: readonly TailLine[], end: number): string {
  const before = lines.filter((l) => l.at < end);
  const cut = Math.min(end, tableCut(before));
  const line = before.findLast((l) => l.at < cut);
  if (!line) return '';
  // After a blank line or a closing fence, whatever came before is finished.
  if (!line.content) return tail.slice(0, cut);
  if (!line.complete && MARKERS_ONLY.test(line.text)) return healText(tail, before, line.at);
  const text = closeEmphasis(tail, line.region, pendingCut(tail, line.region, cut));
  // Cutting inline may leave a line of bare markers behind.
  const lastLine = text.slice(text.lastIndexOf('\n') + 1);
  return lastLine !== '' && MARKERS_ONLY.test(lastLine) ? text.slice(0, -lastLine.length) : text;
}

const MARKERS_ONLY = /^[ \t>]*(?:[-*+_=#]+|\d{1,9}[.)]?)?[ \t]*$/;
const DELIMITER_ROW = /^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const DELIMITER_PREFIX = /^[|:\s-]*$/;

interface TailLine {
  at: number;
  text: string;
  line: Line;
  complete: boolean;
  /** Whether the line is plain content (not blank, not inside a fence). */
  content: boolean;
  /** Where the inline context holding this line starts (a paragraph's first line, else itself). */
  region: number;
  /** What the scan leaves open after this line. */
  open: LineScanner['open'];
}

function readLines(tail: string): TailLine[] {
  const scanner = new LineScanner();
  const lines: TailLine[] = [];
  let previous: TailLine | undefined;
  for (let at = 0; at < tail.length;) {
    const newline = tail.indexOf('\n', at);
    const end = newline === -1 ? tail.length : newline;
    const text = tail.slice(at, end);
    const event = scanner.feed(text, at);
    const line = scanner.line;
    const content = event === 'start' || event === 'continue';
    const kind = lineKind(line.content);
    // A paragraph's lines share one inline context; a list item, heading or table row starts its own.
    const joins =
      content &&
      previous?.content === true &&
      kind === 'text' &&
      !line.list &&
      line.quotes === previous.line.quotes &&
      lineKind(previous.line.content) === 'text';
    const current: TailLine = {
      at,
      text,
      line,
      complete: newline !== -1,
      content,
      region: joins && previous ? previous.region : at,
      open: scanner.open,
    };
    lines.push(current);
    previous = current;
    at = end + 1;
  }
  return lines;
}

/** Where a table at the end of `lines` must be cut so that only whole rows of a real table show. */
function tableCut(lines: readonly TailLine[]): number {
  let first = lines.length;
  while (first > 0 && isRow(lines[first - 1]!)) first--;
  const last = lines.length - 1;
  for (let i = first; i <= last; i++) {
    const next = lines[i + 1];
    if (next?.complete && DELIMITER_ROW.test(next.line.content)) {
      return lines[last]!.complete || last <= i + 1 ? Infinity : lines[last]!.at;
    }
    if (i === last) return lines[i]!.at;
    if (i + 1 === last && !next!.complete && DELIMITER_PREFIX.test(next!.line.content)) {
      return lines[i]!.at;
    }
  }
  return Infinity;
}

/** A line that may be a table's header or row: it starts with a pipe, or has pipes between spaces. */
function isRow(line: TailLine): boolean {
  const content = line.line.content;
  return line.content && (content.startsWith('|') || content.split(' | ').length > 2);
}
