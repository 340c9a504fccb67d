import path from 'node:path';
import { fileURLToPath } from 'node:url';

const src = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src');

/**
 * `ayah-coach` and `ayah-coach/<entry>` resolved onto the sources, for the host app, the stories and
 * the tests: they import the package's public entries exactly as a portal would, without a build.
 * tsconfig.json's `paths` say the same for the type checker.
 */
export const packageAliases = [
  { find: /^ayah-coach\/styles\.css$/, replacement: path.join(src, 'styles.css') },
  { find: /^ayah-coach\/rules$/, replacement: path.join(src, 'lib/index.ts') },
  { find: /^ayah-coach\/([a-z]+)$/, replacement: path.join(src, '$1/index.ts') },
  { find: /^ayah-coach$/, replacement: path.join(src, 'index.ts') },
];
