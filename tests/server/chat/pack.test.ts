/**
 * The search filer's packing (server/chat/service.ts `packPieces`): however many messages wait when
 * it runs, they land in the chunks exactly as appending each in turn would, lengths counted as
 * PostgreSQL's `length` counts them (characters, not UTF-16 units).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { CHUNK_CHARS, packPieces } from '../../../server/chat/service';
import { appendedInTurn } from './chunks';

/** `chunks` after `packPieces` placed `pieces` (the title's chunk, if any, is not among them). */
function packed(chunks: string[], hasTitle: boolean, pieces: string[]): string[] {
  const lastText = chunks.at(-1);
  const last =
    lastText !== undefined
      ? { seq: chunks.length, n: [...lastText].length }
      : hasTitle
        ? { seq: 0, n: 5 }
        : null;
  const { onto, fresh } = packPieces(last, pieces);
  const out = [...chunks];
  if (onto !== '') out[out.length - 1] += onto;
  return [...out, ...fresh];
}

const piece = fc
  .oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.integer({ min: 0, max: 1.5 * CHUNK_CHARS }).map((n) => 'w'.repeat(n)),
    fc.integer({ min: 0, max: 700 }).map((n) => '😀'.repeat(n)),
  )
  .map((text) => `\u0001${text}`);

describe('packing waiting messages into search chunks', () => {
  it('places any pieces after any chunks as appending them one at a time would', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 4 }),
        fc.boolean(),
        fc.array(piece, { maxLength: 6 }),
        (before, hasTitle, pieces) => {
          const chunks = appendedInTurn([], before);
          expect(packed(chunks, hasTitle, pieces)).toEqual(appendedInTurn(chunks, pieces));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('counts characters, not UTF-16 units, against the bound', () => {
    // 600 emoji are 600 characters (1,200 UTF-16 units): with a 300-character piece, they fit.
    const emoji = `\u0001${'😀'.repeat(599)}`;
    const { onto, fresh } = packPieces({ seq: 1, n: 0 }, [emoji, `\u0001${'a'.repeat(399)}`]);
    expect(fresh).toEqual([]);
    expect([...onto].length).toBe(1000);
    // Never onto the title's chunk, however short.
    expect(packPieces({ seq: 0, n: 3 }, ['\u0001a'])).toEqual({ onto: '', fresh: ['\u0001a'] });
  });
});
