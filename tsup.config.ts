import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  dts: true,
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
});
