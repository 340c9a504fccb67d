import path from 'node:path';
import { fileURLToPath } from 'node:url';

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

import { packageAliases } from '../aliases.ts';
import { routePreload } from './route-preload.ts';

const appDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(appDir);

// The host app: built into dist-app/, which the server serves beside the API (`npm start`).
export default defineConfig({
  root: appDir,
  plugins: [react(), tailwindcss(), routePreload()],
  // The app imports the package's public entries, as a portal would.
  resolve: { alias: packageAliases },
  // The same PostCSS pass as the library's stylesheet (Tailwind's globals scoped to .ayah).
  css: { postcss: root },
  build: {
    outDir: path.join(root, 'dist-app'),
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    target: 'es2022',
    rolldownOptions: {
      // Everything the entry imports statically, in one chunk beside it: it all loads first anyway, and
      // Rolldown otherwise cuts it into pieces shared with the lazy chunks (React with tailwind-merge,
      // xstate in three), more requests and less compression for the same code.
      output: { codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] } },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
});
