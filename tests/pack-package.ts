/**
 * `npm test`'s one build of the package (scripts/test.mjs): packed from a clean copy of the repo into
 * .test-results/package/, where the package tests take the tarball from (packedTarball), and that
 * build's dist/ put in place for the tests that read dist/.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';

import { PACKED, packFromCleanCopy, root } from './built-package';

rmSync(PACKED, { recursive: true, force: true });
const tarball = packFromCleanCopy(PACKED, { keepDist: true });
console.log(`packed ${path.relative(root, tarball)}`);
