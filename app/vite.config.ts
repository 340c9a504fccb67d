import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
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
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
});
