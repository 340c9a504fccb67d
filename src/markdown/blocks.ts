import { LineScanner, mathKey } from './scan';

/** A reply cut into top-level blocks. */
export interface BlockView {
  /** Finished blocks, in order: their text never changes again (while the reply only grows). */
  blocks: readonly string[];
  /** While streaming, the unfinished last block (possibly empty); otherwise always empty. */
  tail: string;
}

/**
 * Cuts markdown into top-level blocks at blank lines, so that rendering each block on its own and
 * putting the results side by side gives what rendering the whole text gives. A cut is never made
 * inside a code fence, a `$$` block, an HTML block, or a list (a loose list's items stay
 * together); a reply holding a link reference or footnote definition is one block.
 *
 * Incremental: fed a reply that grows, it reads each line once, so the work over a whole stream
 * is linear in its length. Any other change of text starts over.
 */
export class BlockSplitter {
  private text = '';
  private scanner = new LineScanner();
  private blocks: string[] = [];
  /** Where the current (unfinished) block starts. */
  private start = 0;
  /** Where the first line not yet read starts. */
  private pos = 0;

  update(text: string, streaming: boolean): BlockView {
    if (!text.startsWith(this.text)) this.reset();
    this.text = text;
    // Only whole lines are read: the last one may still grow.
    for (let end = text.indexOf('\n', this.pos); end !== -1; end = text.indexOf('\n', this.pos)) {
      if (this.scanner.feed(text.slice(this.pos, end), this.pos) === 'start') {
        this.blocks.push(text.slice(this.start, this.pos));
        this.start = this.pos;
      }
      this.pos = end + 1;
    }
    if (this.scanner.definitions) return whole(text, streaming);
    if (streaming) return { blocks: this.blocks, tail: text.slice(this.start) };
    const rest = finish(text, this.start);
    return rest ? { blocks: [...this.blocks, ...rest], tail: '' } : whole(text, false);
  }

  private reset(): void {
    this.text = '';
    this.scanner = new LineScanner();
    this.blocks = [];
    this.start = 0;
    this.pos = 0;
  }
}

/** The blocks of a finished reply. */
export function splitBlocks(text: string): string[] {
  return [...new BlockSplitter().update(text, false).blocks];
}

function whole(text: string, streaming: boolean): BlockView {
  if (streaming) return { blocks: [], tail: text };
  return { blocks: text === '' ? [] : [text], tail: '' };
}

/**
 * The blocks of a finished reply's unfinished part (from `start`, where nothing is open). A `$$`
 * left open at the end never closed: as `normalizeMath` does, its opening line is then read as
 * text, and the part is read again knowing that. Null when its last line is a definition.
 */
function finish(text: string, start: number): string[] | null {
  const unclosed = new Set<string>();
  for (;;) {
    const scanner = new LineScanner(unclosed);
    const blocks: string[] = [];
    let blockStart = start;
    for (let from = start; from <= text.length;) {
      let end = text.indexOf('\n', from);
      if (end === -1) end = text.length;
      if (scanner.feed(text.slice(from, end), from) === 'start') {
        blocks.push(text.slice(blockStart, from));
        blockStart = from;
      }
      from = end + 1;
    }
    if (scanner.definitions) return null;
    const open = scanner.open;
    if (open?.kind !== 'math') {
      if (blockStart < text.length) blocks.push(text.slice(blockStart));
      return blocks;
    }
    unclosed.add(mathKey(open.quotes, open.fence.size));
  }
}
