/**
 * The terms of use and the privacy notice: a school replaces either by writing `terms.md` or
 * `privacy.md` into the data dir; the file is read on every request, so an edit shows without a
 * restart. The title is the text's first `# ` heading.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { DEFAULT_PAGES, type LegalPageName } from './defaults';

const TITLES: Record<LegalPageName, string> = { terms: 'Terms of use', privacy: 'Privacy notice' };

/** Splits a leading `# Title` off the text; without one the page's usual title is kept. */
function legalPage(name: LegalPageName, text: string) {
  const match = /^\s*#\s+(.+?)\s*(?:\r?\n|$)/.exec(text);
  if (!match) return { title: TITLES[name], markdown: text.trim() };
  return { title: match[1]!, markdown: text.slice(match[0].length).trim() };
}

/** The school's own page from `dataDir`, else (missing, unreadable or blank) the default. */
export async function readLegalPage(dataDir: string, name: LegalPageName) {
  const text = await readFile(path.join(dataDir, `${name}.md`), 'utf8').catch(
    () => DEFAULT_PAGES[name],
  );
  return legalPage(name, text.trim() ? text : DEFAULT_PAGES[name]);
}
