import { createContext, useContext } from 'react';

import type { HastNode } from './hast';

/** Plain text to show at the end of a block, after the markdown it was parsed from. */
export interface Suffix {
  /** The length of the (normalised) markdown the block was parsed from: where the suffix goes. */
  offset: number;
  text: string;
}

/** The suffix of the block being rendered (only the unfinished block has one). */
export const SuffixContext = createContext<Suffix | null>(null);

/**
 * The suffix, if `node` (a paragraph, list item or heading) is where it goes: its last child is
 * text ending where the markdown ends. With `whole`, `node` itself must end there (a code block).
 * A text the autolink transform split off (after `www.example`) has no position of its own: then it
 * ends where `node` does.
 */
export function useSuffix(node: HastNode | undefined, whole = false): string | null {
  const suffix = useContext(SuffixContext);
  if (!suffix || !node) return null;
  const end = whole ? node : node.children?.at(-1);
  // The line breaks hast puts between blocks have no position either, and a suffix never goes there.
  const split = !whole && end?.type === 'text' && !end.position && /\S/.test(end.value ?? '');
  const ends = (split ? node : end)?.position?.end?.offset === suffix.offset;
  return ends && (whole || end?.type === 'text') ? suffix.text : null;
}
