import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { defineConfig } from 'tsup';

// One entry per feature (`ayah-coach/<feature>`), so a portal embedding one widget loads no other's code.
const entry = {
  index: 'src/index.ts',
  auth: 'src/auth/index.ts',
  chat: 'src/chat/index.ts',
  goals: 'src/goals/index.ts',
  wallet: 'src/wallet/index.ts',
  settings: 'src/settings/index.ts',
  teacher: 'src/teacher/index.ts',
  markdown: 'src/markdown/index.ts',
  rules: 'src/lib/index.ts',
};

/**
 * src/'s declarations, emitted by TypeScript 7 (`typescript-native`, as in scripts/typecheck.mjs),
 * which type-checks src/ as it goes and fails the build on an error. tsup then bundles them per entry
 * (rollup-plugin-dts, as before). tsup's own declaration build compiled src/ again with TypeScript 6:
 * 22 s of a 25 s build, against about 5 s here and 2 s to bundle. Answers each entry's .d.ts.
 */
function emitDeclarations(): Record<string, string> {
  const outDir = path.resolve('.tmp-declarations');
  rmSync(outDir, { recursive: true, force: true });
  const manifest = createRequire(import.meta.url).resolve('typescript-native/package.json');
  const tsc = path.join(path.dirname(manifest), 'bin', 'tsc');
  const args = ['-p', 'src', '--noEmit', 'false', '--declaration', '--emitDeclarationOnly'];
  const run = spawnSync(process.execPath, [tsc, ...args, '--outDir', outDir], {
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error('src/ does not type-check: no declarations to bundle.');
  return Object.fromEntries(
    Object.entries(entry).map(([name, file]) => [
      name,
      path.join(outDir, file.replace(/^src\//, '').replace(/\.tsx?$/, '.d.ts')),
    ]),
  );
}

export default defineConfig(() => ({
  entry,
  format: ['esm'],
  dts: { entry: emitDeclarations() },
  sourcemap: true,
  clean: true,
  // Keeps lazily imported parts (KaTeX, ethers) behind their own dynamic import() so that a portal
  // embedding only one widget does not load the others' heavy dependencies.
  splitting: true,
  treeshake: true,
  target: 'es2022',
  outDir: 'dist',
  external: ['react', 'react-dom', 'react/jsx-runtime'],
  // The stylesheet is compiled by Tailwind's CLI into dist/styles.css (`ayah-coach/styles.css`).
  onSuccess: 'node scripts/build-css.mjs',
}));
