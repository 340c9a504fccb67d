/**
 * Each public entry alone, as a portal's bundler would see it: `src/<entry>` bundled by esbuild,
 * minified, with React and React DOM left to the host and every dynamic `import()` left unfollowed
 * (KaTeX on the first formula, ethers when the wallet is used load later). Returns gzip kB by entry.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { build } from 'esbuild';

export const ENTRIES = {
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

/** Leaves every dynamic import() as it is: that code is not part of the entry's first load. */
const dynamicImportsStay = {
  name: 'dynamic-imports-stay',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
    );
  },
};

/** The gzip size of one entry, and the packages (by node_modules path) its bundle holds. */
export async function measureEntry(root, entry) {
  const result = await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    minify: true,
    write: false,
    outdir: path.join(root, '.tmp-bench-bundle'),
    metafile: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    external: ['react', 'react-dom', 'react/*', 'react-dom/*'],
    loader: { '.css': 'empty' },
    plugins: [dynamicImportsStay],
    logLevel: 'error',
  });
  const js = result.outputFiles.find((file) => file.path.endsWith('.js'));
  const output = Object.values(result.metafile.outputs).find((out) => out.entryPoint);
  // Minified bytes by package (or by src/ folder), counting only what survived tree-shaking.
  const bytes = new Map();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    if (bytesInOutput === 0) continue;
    bytes.set(packageOf(input), (bytes.get(packageOf(input)) ?? 0) + bytesInOutput);
  }
  return { kb: gzipSync(js.contents, { level: 9 }).length / 1024, bytes };
}

/** The package a bundled file comes from, or its src/ folder. */
function packageOf(input) {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return input.split('/').slice(0, 2).join('/');
  const parts = input.slice(at + 'node_modules/'.length).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}
