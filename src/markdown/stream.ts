import { BlockSplitter } from './blocks';
import { healTail } from './heal';

/** What to render of a reply: its finished blocks, and the unfinished one while streaming. */
export interface StreamState {
  /** Finished blocks, in order; their text never changes again while the reply only grows. */
  blocks: readonly string[];
  /**
   * The unfinished block, healed: `base` is parsed as markdown, and `suffix` is plain text that
   * arrived after it, shown at its end without parsing again (see {@link appendable}).
   */
  tail: { base: string; suffix: string } | null;
}

/**
 * The streaming view of one reply: cuts it into blocks (incrementally), heals the unfinished one,
 * and decides how much of that must be parsed again.
 *
 * Most chunks add a few letters to the paragraph being written. Parsing the whole paragraph again
 * for them is most of a streaming renderer's work, and they cannot change how anything before
 * them parses: such a chunk is appended to the last text as it is, and the paragraph is parsed
 * again only when something else arrives (punctuation, a formula, a line break…).
 */
export class StreamView {
  private readonly splitter = new BlockSplitter();
  private base = '';

  update(content: string, streaming: boolean): StreamState {
    const { blocks, tail } = this.splitter.update(content, streaming);
    if (!streaming || tail === '') return { blocks, tail: null };
    const healed = healTail(tail);
    if (healed.text === '') return { blocks, tail: null };
    if (!appendable(this.base, healed.text, healed.code))
      this.base = newBase(healed.text, healed.code);
    return { blocks, tail: { base: this.base, suffix: healed.text.slice(this.base.length) } };
  }
}

/**
 * Where to parse the unfinished block from: all of it, less the spaces it ends in when they can be
 * shown as a suffix (markdown drops a paragraph's trailing spaces, so text appended to them later
 * would need parsing again: a reply would be parsed twice per sentence, not once).
 */
function newBase(text: string, code: boolean): string {
  const trimmed = code ? text : text.replace(/ +$/, '');
  return trimmed !== text && appendable(trimmed, text, code) ? trimmed : text;
}

// What a chunk may hold to be shown as plain text: in prose, letters, digits, spaces, commas,
// apostrophes and full stops after a letter (nothing markdown, GFM, math or an autolink reads: a
// list marker is digits and a full stop, a domain autolinks only after `www.`); in code, anything
// but a line end.
const PLAIN = /^[A-Za-z0-9 ,'.]*$/;
const STOP_AFTER_NON_LETTER = /[^A-Za-z]\./;
const PLAIN_CODE = /^[^\n\r]*$/;
// What prose must end in for text to be appended to it: a letter, digit or closing punctuation
// that ends no link, code span, formula or emphasis, and no backslash (which could escape); or a
// full stop after a letter (after digits it could be a list marker).
const PROSE_END = /(?:[A-Za-z0-9,;!?'"]|[A-Za-z]\.)$/;
// A last line where letters could still extend an autolink (`www.`, `https:`, an email address;
// GFM autolinks no other scheme, so `**Tip:**` is not one).
const AUTOLINK = /www\.|(?:https?|mailto|xmpp):|@/i;
/** Past this, the text is parsed again anyway: if the suffix ever found no home, not for long. */
const MAX_SUFFIX = 160;

/**
 * Whether `text` is `base` followed by text that renders, appended to the last text of `base`'s
 * rendering, exactly as parsing `text` would render it (up to a trailing space).
 */
export function appendable(base: string, text: string, code: boolean): boolean {
  if (base === '' || text.length <= base.length || text.length - base.length > MAX_SUFFIX) {
    return false;
  }
  if (!text.startsWith(base)) return false;
  const suffix = text.slice(base.length);
  if (code) return PLAIN_CODE.test(suffix) && !/[\n\r]$/.test(base);
  const lastLine = base.slice(base.lastIndexOf('\n') + 1);
  return (
    PLAIN.test(suffix) &&
    PROSE_END.test(base) &&
    !STOP_AFTER_NON_LETTER.test(base.slice(-1) + suffix) &&
    !AUTOLINK.test(lastLine + suffix)
  );
}
