#!/usr/bin/env node
// After `vite build`: writes name.br and name.gz beside every compressible file of dist-app/ (or the
// directory given), so the server sends them precompressed (serveStatic's `precompressed`).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|wasm)$/i;
const MIN_BYTES = 1024;

export function compressDir(dir) {
  let files = 0;
  for (const entry of readdirSync(dir)) {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) {
      files += compressDir(file);
      continue;
    }
    if (!COMPRESSIBLE.test(entry)) continue;
    const bytes = readFileSync(file);
    if (bytes.length < MIN_BYTES) continue;
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
    files += 1;
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const dir = path.resolve(process.argv[2] ?? path.join(root, 'dist-app'));
  console.log(`[compress] ${compressDir(dir)} files precompressed (br, gz) in ${dir}`);
}
