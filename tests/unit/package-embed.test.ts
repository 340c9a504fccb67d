/**
 * Issue 10's "Done when", as a portal developer would try it: the packed library (`npm pack`, the very
 * tarball a registry would serve) installed into a scratch project outside this repo, where
 * `import { Chat } from 'ayah-coach/chat'`, `import { createHttpApi } from 'ayah-coach'` and
 * `import 'ayah-coach/styles.css'` type-check (TypeScript, `moduleResolution: bundler`) and the chat
 * renders in Node (react-dom/server) inside `<AyahRoot>`.
 *
 * No registry is reached: the tarball is unpacked into the scratch node_modules, and React, TypeScript
 * and the package's own dependencies are linked from this repo's node_modules.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { packedTarball, root } from '../built-package';

const PORTAL = `import { renderToString } from 'react-dom/server';
import { AyahRoot, createHttpApi, type Api } from 'ayah-coach';
import { Chat, type ChatProps } from 'ayah-coach/chat';
import 'ayah-coach/styles.css';

const api: Api = createHttpApi({ baseURL: 'https://ayah.example.org', getToken: () => 'token' });
const props: ChatProps = { adapter: api.chat, user: { id: 'student-1' } };

export const html: string = renderToString(
  <AyahRoot theme="dark">
    <Chat {...props} />
  </AyahRoot>,
);
`;

// What a bundler does with a stylesheet import when rendering on the server: nothing.
const CSS_HOOKS = `export async function load(url, context, next) {
  if (url.endsWith('.css')) return { format: 'module', source: '', shortCircuit: true };
  return next(url, context);
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'bundler',
    jsx: 'react-jsx',
    strict: true,
    verbatimModuleSyntax: true,
    // A portal's own bundler (Vite's client types, webpack's css-loader) declares stylesheet imports.
    types: [],
    outDir: 'out',
    skipLibCheck: true,
  },
  files: ['portal.tsx', 'css.d.ts'],
};

let scratch = '';
let tarball = '';

/** Links a package from this repo's node_modules into the scratch project. */
function link(name: string) {
  const target = path.join(scratch, 'node_modules', name);
  if (existsSync(target)) return;
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(path.join(root, 'node_modules', name), target, 'dir');
}

describe('npm pack, installed in a portal outside the repo', () => {
  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'ayah-portal-'));
    // Packed from a clean clone (issue 25 item 7): the repo's files as git knows them, no dist/, with
    // this repo's node_modules; `npm pack` alone must build what it packs (the `prepack` script).
    // `npm test` packed it so before vitest; a run of this file alone packs it now.
    tarball = packedTarball(scratch);

    const installed = path.join(scratch, 'node_modules', 'ayah-coach');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const name of Object.keys(manifest.dependencies)) link(name);
    for (const name of ['react', 'react-dom', '@types/react', '@types/react-dom', 'typescript']) {
      link(name);
    }

    writeFileSync(
      path.join(scratch, 'package.json'),
      JSON.stringify({ name: 'portal', private: true, type: 'module' }),
    );
    writeFileSync(path.join(scratch, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(path.join(scratch, 'css.d.ts'), "declare module '*.css';\n");
    writeFileSync(path.join(scratch, 'portal.tsx'), PORTAL);
    writeFileSync(path.join(scratch, 'css-hooks.mjs'), CSS_HOOKS);
    writeFileSync(
      path.join(scratch, 'render.mjs'),
      "import { register } from 'node:module';\n" +
        "register('./css-hooks.mjs', import.meta.url);\n" +
        "const { html } = await import('./out/portal.js');\n" +
        'process.stdout.write(html);\n',
    );
  }, 600_000);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('the tarball holds the built package and nothing of the sources', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(listing).toContain('package/dist/chat.js');
    expect(listing).toContain('package/dist/styles.css');
    expect(listing.filter((file) => /^package\/(src|server|app|tests)\//.test(file))).toEqual([]);
    expect(readdirSync(path.join(scratch, 'node_modules', 'ayah-coach'))).toEqual(
      expect.arrayContaining(['dist', 'package.json']),
    );
  });

  test('the imports type-check and the chat renders in Node', () => {
    const tsc = path.join(scratch, 'node_modules', 'typescript', 'bin', 'tsc');
    let compiled = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], {
        cwd: scratch,
        encoding: 'utf8',
      });
    } catch (error) {
      compiled = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(compiled).toBe('');

    const html = execFileSync(process.execPath, ['render.mjs'], { cwd: scratch, encoding: 'utf8' });
    expect(html).toContain('data-slot="ayah-root"');
    expect(html).toContain('data-theme="dark"');
    expect(html).toContain('data-slot="chat"');
    expect(html).toMatch(/<textarea[^>]*aria-label="[^"]+"/);
  }, 120_000);

  test('a wrong import fails the type check (the check is not vacuous)', () => {
    writeFileSync(
      path.join(scratch, 'wrong.tsx'),
      "import { Chat } from 'ayah-coach';\nimport { NoSuchThing } from 'ayah-coach/chat';\nexport { Chat, NoSuchThing };\n",
    );
    writeFileSync(
      path.join(scratch, 'tsconfig.wrong.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { noEmit: true },
        files: ['wrong.tsx'],
      }),
    );
    const tsc = path.join(scratch, 'node_modules', 'typescript', 'bin', 'tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', 'tsconfig.wrong.json'], {
        cwd: scratch,
        encoding: 'utf8',
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toMatch(/has no exported member '?"?Chat/);
    expect(output).toMatch(/NoSuchThing/);
  }, 120_000);
});
