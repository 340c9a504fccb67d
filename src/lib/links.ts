/** Schemes a rendered link or image may use (spec section 5); relative URLs are allowed too. */
export const SAFE_URL_SCHEMES = ['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp'] as const;

const SAFE_SCHEME = new RegExp(`^(?:${SAFE_URL_SCHEMES.join('|')})$`, 'i');

// Character references that can smuggle a colon, tab or newline past a naive check when the value
// ends up in HTML: `javascript&#58;`, `java&Tab;script:`. Decoded only for the check.
const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(colon|Tab|NewLine));?/g;
const NAMED: Record<string, string> = { colon: ':', Tab: '\t', NewLine: '\n' };

/**
 * `url` if it is relative or uses an allowed scheme, else undefined; usable as react-markdown's
 * `urlTransform` (undefined drops the attribute rather than linking to the page itself).
 *
 * Modelled on react-markdown's `defaultUrlTransform`: a colon before any `/`, `?` or `#` means a
 * scheme. Before looking, the value is read the way a browser would: character references
 * decoded, ASCII tab and newline removed anywhere, and C0 controls and spaces trimmed from both
 * ends (WHATWG URL). So `java\tscript:`, `  javascript:` and `javascript&#58;` are all refused. An
 * allowed value is returned with tabs and newlines removed and the ends trimmed.
 */
export function safeUrl(url: string): string | undefined {
  const cleaned = trimControls(stripTabsAndNewlines(url));
  const seen = trimControls(stripTabsAndNewlines(decodeReferences(cleaned)));
  return isRelativeOrSafe(seen) ? cleaned : undefined;
}

/** Whether {@link safeUrl} keeps `url`. */
export function isSafeUrl(url: string): boolean {
  return safeUrl(url) !== undefined;
}

function isRelativeOrSafe(value: string): boolean {
  const colon = value.indexOf(':');
  if (colon === -1) return true;
  for (const mark of ['/', '?', '#']) {
    const at = value.indexOf(mark);
    if (at !== -1 && at < colon) return true;
  }
  return SAFE_SCHEME.test(value.slice(0, colon));
}

function stripTabsAndNewlines(value: string): string {
  return value.replace(/[\t\n\r]/g, '');
}

function trimControls(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end--;
  return value.slice(start, end);
}

function decodeReferences(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(REFERENCE, (match, dec?: string, hex?: string, name?: string) => {
    if (name) return NAMED[name] ?? match;
    const code = dec ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16);
    // A reference to nothing (0, surrogates, past U+10FFFF) becomes U+FFFD, as in HTML.
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
    return String.fromCodePoint(code);
  });
}
