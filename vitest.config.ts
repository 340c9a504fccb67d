import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { playwright } from '@vitest/browser-playwright';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { chromiumLaunchOptions } from './tests/chromium';

const dirname = path.dirname(fileURLToPath(import.meta.url));

// Real Chromium from Debian, driven by Playwright; never a downloaded browser.
const browser = {
  enabled: true,
  headless: true,
  provider: playwright({ launchOptions: chromiumLaunchOptions() }),
  instances: [{ browser: 'chromium' as const }],
  screenshotFailures: false,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts'],
        },
      },
      {
        // The reference server over real HTTP. DATABASE_URL (set by scripts/test.mjs for the
        // PostgreSQL pass) selects a real PostgreSQL; otherwise each file shares one PGlite.
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'component',
          environment: 'jsdom',
          include: ['tests/component/**/*.test.tsx'],
          setupFiles: ['tests/setup-dom.ts'],
          globals: true,
        },
      },
      {
        plugins: [react(), tailwindcss()],
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.tsx'],
          browser,
        },
      },
      {
        // Story tests: every story renders and runs its play function in real Chromium. The addon
        // does not read vite.config, so the Tailwind plugin is added here.
        plugins: [
          tailwindcss(),
          storybookTest({ configDir: path.join(dirname, '.storybook') }),
        ],
        test: {
          name: 'stories',
          browser,
        },
      },
    ],
  },
});
