/**
 * Issue 25 #16: one text case for titles and buttons. The spec's own strings keep the case it writes
 * them in ('Save Changes', 'Check Your Email', '← Back to Sign In'…); every other title, heading,
 * tab, menu item and button in src/ and app/ is in sentence case (the decision is written down in
 * README.md, "Text case"). The strings are read from the source with the TypeScript parser: each
 * such element's own text, and the `title`/`aria-label` a page or button is given.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { expect, test } from 'vitest';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The spec's strings in Title Case, as it writes them (sections 2 to 9). */
const SPEC_STRINGS = new Set([
  'Active Goals',
  'Avg Progress',
  'Change Password',
  'Check Your Email',
  'Continue with Email',
  'Data Controls',
  'Day Streak',
  'Exercise Tools',
  'Invalid Page Access',
  'Message Ayah',
  'New Chat',
  'Nutrition Tools',
  'Profile Information',
  'Profile Settings',
  'Recent Activity',
  'Reload Page',
  'Reset Password',
  'Save Changes',
  'Search Chats',
  'Sign Out',
  'This Week',
  'Wellness Tools',
  '← Back to Sign In',
  // The same, its arrow drawn apart (aria-hidden).
  'Back to Sign In',
]);

/** Names, which keep their capital anywhere. */
const NAMES = /^(Ayah|AYAH|Math|Science|History|English|MetaMask|Google|Ethereum|I|AI|CSV|JSON)$/;

/** Elements whose text is a title or a button's label. */
const TITLED =
  /^(button|Button|h[1-6]|Heading|DialogTitle|AlertDialogTitle|DropdownMenuItem|DropdownMenuLabel|legend|TabsTrigger)$/;
const LABEL_PROPS = new Set(['title', 'aria-label']);

/** A string in neither sentence case nor the spec's own wording: a capital mid-sentence. */
function wrongCase(text: string): boolean {
  if (SPEC_STRINGS.has(text)) return false;
  return text.split(/[.!?:]\s+/).some((sentence) =>
    sentence
      .split(/\s+/)
      .slice(1)
      .some((word) => /^[A-Z][a-z]/.test(word) && !NAMES.test(word.replace(/\W+$/, ''))),
  );
}

interface Found {
  text: string;
  where: string;
}

/** The element's own text, and the strings it may show instead (`{saving ? 'Saving...' : 'Save'}`). */
function textsOf(element: ts.JsxElement): string[] {
  const own = element.children
    .filter(ts.isJsxText)
    .map((child) => child.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const shown: string[] = [];
  const branch = (node: ts.Expression | undefined) => {
    if (!node) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) shown.push(node.text);
    else if (ts.isConditionalExpression(node)) {
      branch(node.whenTrue);
      branch(node.whenFalse);
    } else if (ts.isParenthesizedExpression(node)) branch(node.expression);
  };
  for (const child of element.children) if (ts.isJsxExpression(child)) branch(child.expression);
  return [own, ...shown].filter(Boolean);
}

function stringsIn(file: string): Found[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(path.join(root, file), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const found: Found[] = [];
  const at = (node: ts.Node) =>
    `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isJsxElement(node) && TITLED.test(node.openingElement.tagName.getText())) {
      for (const text of textsOf(node)) found.push({ text, where: at(node) });
    }
    if (
      ts.isJsxAttribute(node) &&
      LABEL_PROPS.has(node.name.getText()) &&
      node.initializer &&
      ts.isStringLiteral(node.initializer)
    )
      found.push({ text: node.initializer.text, where: at(node) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = ['src', 'app'].flatMap((dir) =>
  readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.tsx'))
    .map((name) => path.join(dir, name)),
);
const strings = files.flatMap(stringsIn);

test('reads the titles and buttons of src/ and app/', () => {
  expect(files.length).toBeGreaterThan(40);
  expect(strings.map((s) => s.text)).toEqual(
    expect.arrayContaining(['Save Changes', 'New goal', 'Reload Page']),
  );
  expect(strings.length).toBeGreaterThan(100);
});

test('every title and button is in sentence case, or the spec’s words as written', () => {
  expect(strings.filter((s) => wrongCase(s.text)).map((s) => `${s.where}: ${s.text}`)).toEqual([]);
});

test('tells Title Case from sentence case', () => {
  expect(wrongCase('Go to Registration')).toBe(true);
  expect(wrongCase('Weekly Goals')).toBe(true);
  expect(wrongCase('Go to registration')).toBe(false);
  expect(wrongCase('Continue with MetaMask')).toBe(false);
  expect(wrongCase('Welcome! How would you like to continue?')).toBe(false);
  expect(wrongCase('Check Your Email')).toBe(false);
});
