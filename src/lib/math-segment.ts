import { isDigit, type Line, runLength } from './markdown-lines';

/**
 * The inline half of `normalizeMath`: one run of paragraph lines (no blank line, fence, heading
 * boundary) scanned left to right the way micromark reads inline markdown, so that code spans and
 * math are recognised exactly where remark-math will see them.
 *
 * Every closer is found through indexes built in one pass (runs of `$` and backticks by length,
 * unescaped `\)` and `\]`, matching brackets), so the scan stays near-linear on any input.
 */
export function normalizeSegment(lines: readonly Line[]): string {
  return new SegmentScanner(lines).run();
}

/**
 * The longest notation converted to math. Formulas are far shorter; the cap keeps a reply full
 * of unmatched or nested brackets linear, since each candidate's content is inspected.
 */
const MAX_CONVERTED = 4000;

const SPECIAL = /[\\`$<[(]/g;
const URI_AUTOLINK = /<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>/y;
const EMAIL_AUTOLINK =
  /<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>/y;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const TEX_COMMAND = /\\[A-Za-z]/;
const TEX_WORD_COMMAND = /\\[A-Za-z]{2,}/;
const TEX_OPERATOR = /[\^_=]/;

class SegmentScanner {
  private readonly s: string;
  private readonly lineStarts: number[] = [];
  private readonly contentStarts: number[] = [];
  private readonly out: string[] = [];
  /** Whether the last thing emitted was math, which ends in a `$` new math must not touch. */
  private prevMath = false;
  // Indexes, built once.
  private readonly dollarRuns = new Map<number, number[]>();
  private readonly tickRuns = new Map<number, number[]>();
  private readonly parenClosers: number[] = [];
  private readonly bracketClosers: number[] = [];
  private readonly match: Int32Array;
  /** How many of the first k lines open a `$$` block in remark-math's eyes (k = index). */
  private readonly flowLines: Int32Array;

  constructor(private readonly lines: readonly Line[]) {
    this.s = lines.map((line) => line.text).join('\n');
    let offset = 0;
    for (const line of lines) {
      this.lineStarts.push(offset);
      this.contentStarts.push(offset + line.start);
      offset += line.text.length + 1;
    }
    this.match = new Int32Array(this.s.length).fill(-1);
    this.flowLines = new Int32Array(lines.length + 1);
    lines.forEach((line, k) => {
      this.flowLines[k + 1] = this.flowLines[k]! + (opensDisplay(line.content) ? 1 : 0);
    });
    this.index();
  }

  run(): string {
    const { s } = this;
    let i = 0;
    while (i < s.length) {
      SPECIAL.lastIndex = i;
      const found = SPECIAL.exec(s);
      const at = found ? found.index : s.length;
      if (at > i) this.emit(s.slice(i, at));
      if (!found) break;
      i = this.token(at);
    }
    return this.out.join('');
  }

  /** Handles the construct starting at `i` and returns where scanning resumes. */
  private token(i: number): number {
    const { s } = this;
    switch (s[i]) {
      case '\\':
        return this.backslash(i);
      case '`':
        return this.codeSpan(i);
      case '$':
        return this.dollars(i);
      case '<':
        return this.autolink(i);
      case '[':
        return this.bracketDisplay(i);
      default:
        return this.parenInline(i);
    }
  }

  private backslash(i: number): number {
    const next = this.s[i + 1];
    if (next === '(' || next === '[') {
      const resume = this.backslashMath(i, next);
      if (resume !== -1) return resume;
    }
    if (next !== undefined && ASCII_PUNCTUATION.test(next)) {
      this.emit(this.s.slice(i, i + 2));
      return i + 2;
    }
    this.emit('\\');
    return i + 1;
  }

  /** A code span is copied untouched; an unmatched backtick run is literal. */
  private codeSpan(i: number): number {
    const size = runLength(this.s, i);
    const closer = firstRun(this.tickRuns, size, i + size);
    const end = closer === -1 || this.crossesDisplay(i, closer) ? i + size : closer + size;
    this.emit(this.s.slice(i, end));
    return end;
  }

  /**
   * `$` math is kept as is; any other `$` is escaped so remark-math cannot pair it. A single `$`
   * must follow Pandoc's currency-safe rule: the opener is followed by a non-space, the closer
   * preceded by a non-space and not followed by a digit — so "$5 and $10" stays money.
   */
  private dollars(i: number): number {
    const { s } = this;
    const size = runLength(s, i);
    const openEnd = i + size;
    const closer = firstRun(this.dollarRuns, size, openEnd);
    const escape = (): number => {
      this.emit('\\$'.repeat(size));
      return openEnd;
    };
    if (closer === -1) return escape();
    const content = s.slice(openEnd, closer);
    const closeEnd = closer + size;
    if (content.trim() === '' || this.crossesDisplay(i, closer)) return escape();
    if (size === 1) {
      if (isSpace(s[openEnd]) || isSpace(s[closer - 1]) || isDigit(s[closeEnd])) return escape();
    } else if (this.atLineStart(i)) {
      if (this.atLineEnd(closeEnd)) {
        const block = this.block(content, i);
        if (block !== null) return this.emitBlock(block, closeEnd);
      }
      // `$$` at a line start with no other `$` on the line opens a display block in remark-math,
      // which would swallow the rest of the reply: only a one-line `$$x$$` may stay inline.
      if (content.includes('\n') && !firstLine(content).includes('$')) return escape();
    }
    this.emit(s.slice(i, closeEnd), true);
    return closeEnd;
  }

  /** `\(..\)` becomes inline math; `\[..\]` display math when it fills its lines, else inline. */
  private backslashMath(i: number, kind: '(' | '['): number {
    const closer = firstAtOrAfter(kind === '(' ? this.parenClosers : this.bracketClosers, i + 2);
    if (closer === -1 || closer - i > MAX_CONVERTED) return -1;
    const raw = this.s.slice(i + 2, closer);
    const closeEnd = closer + 2;
    if (kind === '[' && this.atLineStart(i) && this.atLineEnd(closeEnd)) {
      const block = this.block(raw, i);
      if (block !== null) return this.emitBlock(block, closeEnd);
    }
    return this.inline(raw, kind === '[' ? 2 : 1, i, closeEnd);
  }

  /**
   * A line that is only `[ ... ]` holding TeX (a command, or `^`, `_`, `=` with the spaces a lost
   * `\[ \]` leaves) is display math whose backslashes were lost; multi-line too.
   */
  private bracketDisplay(i: number): number {
    const close = this.match[i]!;
    if (
      close !== -1 &&
      close - i <= MAX_CONVERTED &&
      this.atLineStart(i) &&
      this.atLineEnd(close + 1)
    ) {
      const raw = this.s.slice(i + 1, close);
      if (looksLikeBracketMath(raw)) {
        const block = this.block(raw, i);
        if (block !== null) return this.emitBlock(block, close + 1);
      }
    }
    this.emit('[');
    return i + 1;
  }

  /** `( \frac{a}{b} )` on one line, padded and holding a TeX command, is inline math. */
  private parenInline(i: number): number {
    const close = this.match[i]!;
    // After `]` it is a link destination.
    if (close !== -1 && close - i <= MAX_CONVERTED && this.s[i - 1] !== ']') {
      const raw = this.s.slice(i + 1, close);
      const padded = raw.length > 2 && isBlank(raw[0]) && isBlank(raw[raw.length - 1]);
      if (padded && !raw.includes('\n') && TEX_WORD_COMMAND.test(raw)) {
        const resume = this.inline(raw, 1, i, close + 1);
        if (resume !== -1) return resume;
      }
    }
    this.emit('(');
    return i + 1;
  }

  private autolink(i: number): number {
    for (const pattern of [URI_AUTOLINK, EMAIL_AUTOLINK]) {
      pattern.lastIndex = i;
      const found = pattern.exec(this.s);
      if (found) {
        this.emit(found[0]);
        return i + found[0].length;
      }
    }
    this.emit('<');
    return i + 1;
  }

  /**
   * Emits `raw` as `$..$` (or `$$..$$` when a digit follows, which the single-dollar rule would
   * refuse) and returns where scanning resumes, or -1 to leave the source alone. The refusals
   * keep the output a fixed point: what is emitted must read back as the same math.
   */
  private inline(raw: string, size: number, start: number, end: number): number {
    const { s } = this;
    const content = raw.trim();
    // A `$` inside, even escaped, would end the math early (remark-math reads math raw), and
    // a backtick may open a code span in the author's reading: both stay as they are.
    if (content === '' || content.includes('`') || content.includes('$')) return -1;
    const after = s[end];
    const dollars = isDigit(after) ? 2 : size;
    if (dollars === 2 && this.atLineStart(start)) {
      if (this.atLineEnd(end)) {
        const block = this.block(raw, start);
        return block === null ? -1 : this.emitBlock(block, end);
      }
      if (content.includes('\n')) return -1;
    }
    const fence = '$'.repeat(dollars);
    // A space keeps the new `$` from joining the closing `$` of math just before or after.
    const before = this.prevMath ? ' ' : '';
    const behind = after === '$' ? ' ' : '';
    this.emit(before + fence + content + fence + behind, true);
    return end;
  }

  /**
   * `$$`, the content lines and `$$`, each line behind the container prefix of the line where
   * the math starts; null when the content is empty or could end the block early.
   */
  private block(raw: string, start: number): string | null {
    const line = this.lines[this.lineOf(start)]!;
    const parts = raw
      .split('\n')
      .map((part, k) => (k === 0 ? part : stripQuotes(part, line.quotes)).trim())
      .filter((part) => part !== '');
    // A `$` could close the block early, escaped or not; a backtick may be a code span's.
    if (parts.length === 0 || parts.some((part) => /[$`]/.test(part))) return null;
    return `$$${parts.map((part) => `\n${line.cont}${part}`).join('')}\n${line.cont}$$`;
  }

  /** Emits a block and skips the (blank) rest of its last line. */
  private emitBlock(block: string, after: number): number {
    this.emit(block, true);
    const newline = this.s.indexOf('\n', after);
    return newline === -1 ? this.s.length : newline;
  }

  private emit(text: string, math = false): void {
    if (text === '') return;
    this.out.push(text);
    this.prevMath = math;
  }

  private lineOf(position: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= position) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private atLineStart(position: number): boolean {
    return this.contentStarts[this.lineOf(position)] === position;
  }

  /**
   * Whether a line after the one holding `from`, up to the one holding `to`, starts with a `$$`
   * that remark-math takes for a display block, cutting the paragraph (and any span) there.
   */
  private crossesDisplay(from: number, to: number): boolean {
    const last = this.lineOf(to);
    return this.flowLines[last + 1]! - this.flowLines[this.lineOf(from) + 1]! > 0;
  }

  private atLineEnd(position: number): boolean {
    let i = position;
    while (this.s[i] === ' ' || this.s[i] === '\t') i++;
    return i === this.s.length || this.s[i] === '\n';
  }

  /** One pass: runs of `$` and backticks, unescaped `\)` and `\]`, matching `[]` and `()`. */
  private index(): void {
    const { s } = this;
    const squares: number[] = [];
    const rounds: number[] = [];
    let backslashes = 0;
    for (let i = 0; i < s.length;) {
      const c = s[i]!;
      if (c === '$' || c === '`') {
        const size = runLength(s, i);
        addRun(c === '$' ? this.dollarRuns : this.tickRuns, size, i);
        backslashes = 0;
        i += size;
        continue;
      }
      const escaped = backslashes % 2 === 1;
      if (c === '\\') {
        if (!escaped && s[i + 1] === ')') this.parenClosers.push(i);
        if (!escaped && s[i + 1] === ']') this.bracketClosers.push(i);
        backslashes++;
        i++;
        continue;
      }
      backslashes = 0;
      if (!escaped) {
        if (c === '[') squares.push(i);
        else if (c === '(') rounds.push(i);
        else if (c === ']' && squares.length > 0) this.match[squares.pop()!] = i;
        else if (c === ')' && rounds.length > 0) this.match[rounds.pop()!] = i;
      }
      i++;
    }
  }
}

/** A line remark-math reads as the start of a `$$` block: `$$` with no other `$` after it. */
function opensDisplay(content: string): boolean {
  return content.startsWith('$$') && !content.includes('$', runLength(content, 0));
}

function looksLikeBracketMath(raw: string): boolean {
  const content = raw.trim();
  if (content === '' || content.startsWith('^') || /[`$]/.test(content) || content.includes('](')) {
    return false;
  }
  const padded = isSpace(raw[0]) && isSpace(raw[raw.length - 1]);
  return TEX_COMMAND.test(content) || (padded && TEX_OPERATOR.test(content));
}

/** Removes a continuation line's indentation and up to `quotes` blockquote markers. */
function stripQuotes(line: string, quotes: number): string {
  let i = 0;
  let left = quotes;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (left === 0 || line[i] !== '>') break;
    i++;
    left--;
  }
  return line.slice(i);
}

function addRun(runs: Map<number, number[]>, size: number, start: number): void {
  const list = runs.get(size);
  if (list) list.push(start);
  else runs.set(size, [start]);
}

/** The first run of exactly `size` starting at or after `from`, or -1. */
function firstRun(runs: Map<number, number[]>, size: number, from: number): number {
  return firstAtOrAfter(runs.get(size) ?? [], from);
}

/** The first value of an ascending list at or after `from`, or -1. */
function firstAtOrAfter(sorted: readonly number[], from: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length ? sorted[lo]! : -1;
}

function firstLine(text: string): string {
  const newline = text.indexOf('\n');
  return newline === -1 ? text : text.slice(0, newline);
}

/** Space, tab or line ending: what cannot touch the inside of a single `$`. */
function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n';
}

function isBlank(c: string | undefined): boolean {
  return c === ' ' || c === '\t';
}
