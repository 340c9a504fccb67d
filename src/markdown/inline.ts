import { isDigit } from '../lib/markdown-lines';

/**
 * Inline reading of a streaming paragraph's end, for the tail healer: where a construct opens that
 * has not closed yet, and which emphasis is still open. Approximate by design — it only decides
 * what to show for a moment; `normalizeMath` and the markdown parser decide the final rendering.
 */

// `$5 and`, `$3.50,`: a `$` before an amount and a word or punctuation is money, not math.
const CURRENCY = /\d[\d,]*(?:\.\d+)?[.,;:!?)]*\s+[A-Za-z]/y;
// `( \frac{a}{b} )`: the parenthesis form of inline math that lost its backslashes.
const TEX_PAREN = /\(\s+\\[A-Za-z]/y;

/**
 * The earliest position in `[from, to)` of `s` where an inline construct starts that has not closed
 * by `to` — math in any notation, a code span, a link or image, an autolink — or `to` when none.
 * Shown before it closes, such a construct would appear as raw markup, or as a formula cut short.
 */
export function pendingCut(s: string, from: number, to: number): number {
  const brackets: number[] = [];
  const held = (at: number): number => {
    const first = brackets[0];
    return first === undefined ? at : Math.min(at, linkStart(s, first));
  };
  let i = from;
  while (i < to) {
    const c = s[i];
    if (c === '\\') {
      const next = s[i + 1];
      if (i + 1 >= to) return held(i);
      if (next === '(' || next === '[') {
        const close = s.indexOf(next === '(' ? '\\)' : '\\]', i + 2);
        if (close === -1 || close + 2 > to) return held(i);
        i = close + 2;
      } else i += 2;
    } else if (c === '`') {
      const size = run(s, i, to);
      const close = nextRun(s, c, size, i + size, to);
      if (close === -1) return held(i);
      i = close + size;
    } else if (c === '$') {
      const size = run(s, i, to);
      const end = i + size;
      if (end >= to) return held(i);
      // The rules of normalizeMath: a single `$` opens only before a non-space, and closes only
      // after a non-space and not before a digit ("$5 and $10" is money).
      if (size === 1 && (isSpace(s[end]) || currency(s, end, to))) {
        i = end;
        continue;
      }
      const close = nextRun(s, c, size, end, to);
      if (close === -1 || (size === 1 && close + 1 >= to)) return held(i);
      if (size === 1 && (isSpace(s[close - 1]) || isDigit(s[close + 1]))) i = end;
      else i = close + size;
    } else if (c === '[') {
      brackets.push(i++);
    } else if (c === ']') {
      const open = brackets.pop();
      if (open !== undefined && brackets.length === 0) {
        // `[text]` may still become `[text](url`, and a link shown without its url is raw markup.
        if (i + 1 >= to) return held(linkStart(s, open));
        if (s[i + 1] === '(') {
          const close = closingParen(s, i + 2, to);
          if (close === -1) return held(linkStart(s, open));
          i = close;
        }
      }
      i++;
    } else if (c === '(' && matchesAt(TEX_PAREN, s, i, to)) {
      if (closingParen(s, i + 1, to) === -1) return held(i);
      i++;
    } else if (c === '<' && (i + 1 >= to || /[A-Za-z]/.test(s[i + 1]!))) {
      // An autolink (`<https://…>`) has no spaces; a tag would be dropped anyway.
      let j = i + 1;
      while (j < to && s[j] !== '>' && !isSpace(s[j])) j++;
      if (j >= to) return held(i);
      i++;
    } else i++;
  }
  return held(to);
}

interface Opener {
  char: string;
  size: number;
  at: number;
}

/**
 * `s` up to `to`, with the emphasis (`*`, `_`, `**`, `__`, `~~`) still open in `[from, to)` closed
 * at the end, so bold text streams in bold instead of behind raw asterisks. A delimiter run at the
 * very end, and an opener with nothing after it yet, are held back.
 */
export function closeEmphasis(s: string, from: number, to: number): string {
  const stack: Opener[] = [];
  let end = to;
  let i = from;
  while (i < end) {
    const c = s[i]!;
    if (c === '\\') i += 2;
    else if (c === '`' || c === '$') {
      const size = run(s, i, end);
      const close = nextRun(s, c, size, i + size, end);
      i = close === -1 ? i + size : close + size;
    } else if (c === ']' && s[i + 1] === '(') {
      const close = closingParen(s, i + 2, end);
      i = close === -1 ? end : close + 1;
    } else if (c === '*' || c === '_' || c === '~') {
      const size = run(s, i, end);
      if (i + size >= end) {
        end = i;
        break;
      }
      delimiter(stack, { char: c, size, at: i }, i > from ? s[i - 1]! : ' ', s[i + size]!);
      i += size;
    } else i++;
  }
  let text = s.slice(0, end);
  for (
    let top = stack.at(-1);
    top && text.slice(top.at + top.size).trim() === '';
    top = stack.at(-1)
  ) {
    text = text.slice(0, top.at);
    stack.pop();
  }
  if (stack.length === 0) return text;
  return (
    text.trimEnd() +
    stack
      .reverse()
      .map((o) => o.char.repeat(o.size))
      .join('')
  );
}

/** CommonMark's flanking rules, simplified: closes the nearest matching opener, or opens. */
function delimiter(stack: Opener[], run: Opener, prev: string, next: string): void {
  // A single `~` is as often "about" as strikethrough: never treated as an opener.
  if (run.char === '~' && run.size !== 2) return;
  const left = !isSpace(next) && (!isPunct(next) || isSpace(prev) || isPunct(prev));
  const right = !isSpace(prev) && (!isPunct(prev) || isSpace(next) || isPunct(next));
  // Intraword `_` never emphasises; intraword `*` opening is rare and `2*3` is common.
  const canOpen = left && (run.char === '_' ? !right || isPunct(prev) : !isWord(prev));
  const canClose = right && (run.char !== '_' || !left || isPunct(next));
  const match = canClose ? stack.findLastIndex((o) => o.char === run.char) : -1;
  if (match !== -1) stack.length = match;
  else if (canOpen) stack.push(run);
}

/** The start of a link or image whose `[` is at `open`. */
function linkStart(s: string, open: number): number {
  return s[open - 1] === '!' ? open - 1 : open;
}

function currency(s: string, at: number, to: number): boolean {
  CURRENCY.lastIndex = at;
  return CURRENCY.test(s) && CURRENCY.lastIndex <= to;
}

function matchesAt(pattern: RegExp, s: string, at: number, to: number): boolean {
  pattern.lastIndex = at;
  return pattern.test(s) && pattern.lastIndex <= to;
}

/** The length of the run of `s[at]` starting at `at`, not past `to`. */
function run(s: string, at: number, to: number): number {
  let end = at;
  while (end < to && s[end] === s[at]) end++;
  return end - at;
}

/** The start of the next run of exactly `size` characters `c` in `[from, to)`, or -1. */
function nextRun(s: string, c: string, size: number, from: number, to: number): number {
  for (let i = s.indexOf(c, from); i !== -1 && i < to; i = s.indexOf(c, i)) {
    const length = run(s, i, to);
    if (length === size) return i;
    i += length;
  }
  return -1;
}

/** The index of the `)` closing a parenthesis opened just before `from`, or -1. */
function closingParen(s: string, from: number, to: number): number {
  let depth = 1;
  for (let i = from; i < to; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '(') depth++;
    else if (s[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

function isSpace(c: string | undefined): boolean {
  return c === undefined || c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

function isPunct(c: string): boolean {
  return /[\p{P}\p{S}]/u.test(c);
}

function isWord(c: string): boolean {
  return /[\p{L}\p{N}]/u.test(c);
}
