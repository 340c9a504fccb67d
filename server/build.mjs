#!/usr/bin/env node
// Builds the server into server/dist/: one ES module (dist/main.js) for plain `node`, no tsx at run
// time. Every package the server imports must be one of its own `dependencies` (left external, so
// `npm install --omit=dev` in a copy of server/ is all production needs); importing anything else
// fails the build. The maths engines are the exception: bundled (BUNDLED, below). The shared rules
// (`ayah-coach/rules`, the library's src/lib) are bundled in, so a deployment needs neither the
// library's build nor its publication. The migrations and the
// common-password list are copied beside main.js, where the code finds them by `import.meta.url`.
// `node server/build.mjs <dir>` builds into <dir> instead (emptied first), leaving server/dist/ alone.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const serverDir = path.dirname(fileURLToPath(import.meta.url));
const outDir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(serverDir, 'dist');
const manifest = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
const declared = new Set(Object.keys(manifest.dependencies ?? {}));
const builtins = new Set(builtinModules);
const RULES = path.resolve(serverDir, '../src/lib/index.ts');

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

// The maths engines are bundled into maths-worker.js, with what they import: a thread (and each
// fresh one that replaces a stuck thread) then reads one file instead of mathjs's thousand, and
// the pool's two threads load on 2.3 s of CPU here instead of 3.8. So they are the server's
// development dependencies: production installs none of them.
const BUNDLED = new Set(['mathjs', 'mathsteps']);
const repoRoot = path.resolve(serverDir, '..');
/** Whether `file` is a package's (a bundled one's imports are bundled too), not the repo's own. */
const inPackage = (file) => path.relative(repoRoot, file).split(path.sep).includes('node_modules');

// `ayah-coach/rules` onto the library's sources; every other bare import of the server's own code
// stays external, and is checked against the declared dependencies once tree-shaking has run
// (below).
const rules = {
  name: 'ayah-coach-rules',
  setup(builder) {
    builder.onResolve({ filter: /^ayah-coach\/rules$/ }, () => ({ path: RULES }));
    builder.onResolve({ filter: /^[^./]/ }, ({ path: specifier, importer }) =>
      BUNDLED.has(packageOf(specifier)) || inPackage(importer) ? undefined : { external: true },
    );
  },
};

rmSync(outDir, { recursive: true, force: true });
const result = await build({
  // The maths engines and the embedded database (PGlite) run in worker threads, loaded from
  // maths-worker.js and pglite-worker.js beside main.js.
  entryPoints: {
    main: path.join(serverDir, 'main.ts'),
    'maths-worker': path.join(serverDir, 'llm', 'maths-worker.ts'),
    'pglite-worker': path.join(serverDir, 'db', 'pglite-worker.ts'),
  },
  outdir: outDir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
  plugins: [rules],
});
// The rules' own imports (clsx for `cn`) are tree-shaken away; whatever is left must be declared.
const undeclared = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const { path: specifier, external } of output.imports) {
    if (!external || specifier.startsWith('node:') || builtins.has(specifier)) continue;
    if (!declared.has(packageOf(specifier))) undeclared.add(specifier);
  }
}
if (undeclared.size > 0) {
  console.error(
    `[server] imported but not in server/package.json's dependencies: ${[...undeclared].join(', ')}`,
  );
  process.exit(1);
}
cpSync(path.join(serverDir, 'db', 'migrations'), path.join(outDir, 'migrations'), {
  recursive: true,
});
cpSync(
  path.join(serverDir, 'auth', 'common-passwords.txt'),
  path.join(outDir, 'common-passwords.txt'),
);
console.log(`[server] built ${path.relative(process.cwd(), outDir) || outDir}`);
