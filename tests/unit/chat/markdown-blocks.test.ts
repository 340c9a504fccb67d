import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { normalizeMath } from '../../../src/lib/math';
import { BlockSplitter, splitBlocks } from '../../../src/markdown/blocks';
import { replyArbitrary, TUTORING_REPLY } from './markdown-samples';

describe('splitBlocks', () => {
  it('cuts at blank lines between top-level blocks', () => {
    expect(splitBlocks('# Title\n\nOne $x$.\n\nTwo.')).toEqual([
      '# Title\n\n',
      'One $x$.\n\n',
      'Two.',
    ]);
  });

  it('never cuts a code fence, a $$ block or a loose list', () => {
    const fence = '```py\na = 1\n\nb = 2\n```\n\n';
    const math = '$$\nx\n\n= y\n$$\n\n';
    const list = '1. one\n\n2. two\n\n   more of two\n\n';
    expect(splitBlocks(`${fence}${math}${list}After.`)).toEqual([fence, math, list, 'After.']);
  });

  it('reads a $$ that never closes as text, as normalizeMath does', () => {
    expect(splitBlocks('$$\nx\n\ny')).toEqual(['$$\nx\n\n', 'y']);
  });

  it('keeps a reply with a link reference or footnote definition whole', () => {
    const reply = 'See [the notes][n].\n\nMore.\n\n[n]: https://example.com';
    expect(splitBlocks(reply)).toEqual([reply]);
  });

  it('keeps an HTML comment with blank lines whole', () => {
    expect(splitBlocks('<!-- a\n\nb -->\n\nText')).toEqual(['<!-- a\n\nb -->\n\n', 'Text']);
  });

  it('gives blocks that join into the reply and normalise as the whole does', () => {
    fc.assert(
      fc.property(replyArbitrary, (reply) => {
        const blocks = splitBlocks(reply);
        expect(blocks.join('')).toBe(reply);
        expect(blocks.map(normalizeMath).join('')).toBe(normalizeMath(reply));
      }),
    );
  });
});

describe('BlockSplitter', () => {
  it('cuts a growing reply as it would cut it whole, reading each line once', () => {
    fc.assert(
      fc.property(replyArbitrary, fc.array(fc.nat(), { maxLength: 12 }), (reply, cuts) => {
        const splitter = new BlockSplitter();
        const points = [...new Set(cuts.map((c) => c % (reply.length + 1)))].sort((a, b) => a - b);
        for (const end of points) {
          const prefix = reply.slice(0, end);
          const { blocks, tail } = splitter.update(prefix, true);
          expect(blocks.join('') + tail).toBe(prefix);
          // A finished block is final: the whole reply cuts the same way there.
          expect(splitBlocks(reply).slice(0, blocks.length)).toEqual(blocks);
        }
        expect(splitter.update(reply, false)).toEqual({ blocks: splitBlocks(reply), tail: '' });
      }),
    );
  });

  it('starts over when the text is replaced rather than extended', () => {
    const splitter = new BlockSplitter();
    splitter.update('One.\n\nTwo.\n\nThree', true);
    expect(splitter.update('Other.\n\nText', false).blocks).toEqual(['Other.\n\n', 'Text']);
  });

  it('commits the blocks of the tutoring reply as it streams', () => {
    const splitter = new BlockSplitter();
    let committed = 0;
    for (let end = 0; end <= TUTORING_REPLY.length; end++) {
      const { blocks } = splitter.update(TUTORING_REPLY.slice(0, end), true);
      expect(blocks.length).toBeGreaterThanOrEqual(committed);
      committed = blocks.length;
    }
    expect(committed).toBeGreaterThan(10);
  });
});
