import fc from 'fast-check';
import { defaultUrlTransform } from 'react-markdown';
import { describe, expect, it } from 'vitest';

import { isSafeUrl, SAFE_URL_SCHEMES, safeUrl } from '../../../src/lib/links';

describe('safeUrl', () => {
  it('allows http, https, irc, ircs, mailto and xmpp', () => {
    expect(SAFE_URL_SCHEMES).toEqual(['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp']);
    for (const url of [
      'http://example.com',
      'https://example.com/a?b=c#d',
      'irc://irc.libera.chat/#maths',
      'ircs://irc.libera.chat:6697',
      'mailto:teacher@school.org',
      'xmpp:tutor@example.com',
    ]) {
      expect(safeUrl(url)).toBe(url);
    }
  });

  it('matches schemes in any case', () => {
    expect(safeUrl('HTTPS://EXAMPLE.COM')).toBe('HTTPS://EXAMPLE.COM');
    expect(safeUrl('MailTo:a@b.c')).toBe('MailTo:a@b.c');
  });

  it.each([
    '/a',
    'a/b',
    '#x',
    '?q',
    './x:y',
    '../up',
    '//cdn.example.com/x.png',
    '',
    'page.html',
    '/a:b',
    '?a=b:c',
    '#x:y',
  ])('allows relative %j', (url) => {
    expect(safeUrl(url)).toBe(url);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    '  javascript:alert(1)',
    '\u0000javascript:alert(1)',
    '\u001fjavascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\rscript:alert(1)',
    'javascript&#58;alert(1)',
    'javascript&#x3A;alert(1)',
    'javascript&#0000058alert(1)',
    'javascript&colon;alert(1)',
    'java&Tab;script:alert(1)',
    'java&NewLine;script:alert(1)',
    '&#106;avascript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com',
    'tel:+123',
    'foo:bar',
    'http\u0000:evil',
    '%6Aavascript:alert(1)',
    'ht\u200btp://x',
  ])('refuses %j', (url) => {
    expect(safeUrl(url)).toBeUndefined();
    expect(isSafeUrl(url)).toBe(false);
  });

  it('returns an allowed url as a browser reads it: tabs, newlines, outer spaces gone', () => {
    expect(safeUrl('  https://example.com  ')).toBe('https://example.com');
    expect(safeUrl('ht\ttps://exa\nmple.com')).toBe('https://example.com');
    expect(safeUrl('\u0001/path\u0002')).toBe('/path');
  });

  it('never allows a javascript: url hidden by case, spaces or controls', () => {
    const noise = fc.constantFrom('', ' ', '\t', '\n', '\r', '\u0000', '\u000b', '\u001f');
    fc.assert(
      fc.property(
        fc.array(noise, { maxLength: 3 }),
        fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
        fc.nat(10),
        fc.constantFrom('\t', '\n', '\r'),
        (lead, upper, at, inner) => {
          const word = [...'javascript'].map((c, k) => (upper[k] ? c.toUpperCase() : c)).join('');
          const url = `${lead.join('')}${word.slice(0, at)}${inner}${word.slice(at)}:alert(1)`;
          expect(safeUrl(url)).toBeUndefined();
        },
      ),
    );
  });

  it("only returns values react-markdown's defaultUrlTransform keeps too", () => {
    const keptByBoth = (url: string) => {
      const safe = safeUrl(url);
      if (safe !== undefined) expect(defaultUrlTransform(safe)).toBe(safe);
    };
    fc.assert(fc.property(fc.string({ maxLength: 30 }), keptByBoth));
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'HTTPS', 'mailto', 'javascript', 'data', 'x', ' java'),
        fc.constantFrom(':', '/', '?', '#', '&#58;', '\t:'),
        fc.string({ maxLength: 10 }),
        (scheme, mark, rest) => keptByBoth(scheme + mark + rest),
      ),
    );
  });
});
