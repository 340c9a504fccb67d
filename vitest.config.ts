import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

import { packageAliases } from './aliases.ts';
import { chromiumLaunchOptions } from './tests/chromium.ts';

const dirname = path.dirname(fileURLToPath(import.meta.url));

// Real Chromium from Debian, driven by Playwright; never a downloaded browser. A fresh object per
// project: vitest names the instances it is given, in place.
const browser = () => ({
  enabled: true,
  headless: true,
  provider: playwright({ launchOptions: chromiumLaunchOptions() }),
  instances: [{ browser: 'chromium' as const }],
  screenshotFailures: false,
});

// Pre-bundled up front: Vite discovering them mid-run reloads the page and loses the test.
const optimizeDeps = {
  include: [
    'react',
    'react-dom',
    'react-dom/client',
    'react/jsx-dev-runtime',
    '@radix-ui/react-dialog',
    '@radix-ui/react-dropdown-menu',
    'class-variance-authority',
    'clsx',
    'react-hot-toast',
    'tailwind-merge',
    'xstate',
    '@xstate/react',
    'react-markdown',
    'remark-gfm',
    'remark-math',
    'rehype-katex',
    'katex',
    'ethers',
  ],
};

// The run goes in three groups, one after the other, so that the two cores are busy and never
// oversubscribed. First the browser projects (stories, browser) on two Chromium pages; then the Node
// projects (unit, component in jsdom, server, server-pg) on two workers, each server file on its own
// database; last the e2e files, two at a time, each running the whole product and a browser. Vitest's
// default here is one worker in all, which left a core idle for the ten minutes the server files take.
// One at a time, the e2e files took some 250 s of the run's 743 s on a 2-core CI runner, on about one
// core: the whole e2e project is 257 s of CPU (user + sys), mostly its products and browsers waiting.
// The browser files of a worker share its page and module graph (`isolate: false`): in a page of its
// own, each file loaded the stories' modules and Storybook's preview again, and the two projects
// took 182 s (Chromium's renderer alone 211 s of CPU); sharing, 94 s. Between files the page is
// hidden (browser-teardown.ts) and a file's last story unmounted (stories-teardown.ts).
const browserGroup = { sequence: { groupOrder: 0 }, maxWorkers: 2, isolate: false };
const nodeGroup = { sequence: { groupOrder: 1 }, maxWorkers: 2 };
// Each e2e file starts its own product on its own port and data dir, and its own Chromium; the first
// product to start builds the app and the server, alone (tests/e2e/product.ts).
const e2eGroup = { sequence: { groupOrder: 2 }, maxWorkers: 2 };

// With no durations from an earlier run (a clean CI checkout), vitest starts the larger files first.
// Among the e2e files, size says little of time: screens.test, seventh of twelve by size but
// 63 s of a 289 s group, started 190 s in and left one worker alone for the group's last 14 s. So
// these start first, longest first (clean-clone CI, 2 cores), and the short files fill in the end.
const slowE2e = [
  'tests/e2e/auth.test.ts', // 89 s
  'tests/e2e/screens.test.ts', // 63 s
  'tests/e2e/lti.test.ts', // 57 s
  'tests/e2e/chat.test.ts', // 45 s
  'tests/e2e/wallet-settings.test.ts', // 37 s
  'tests/e2e/server-standalone.test.ts', // 33 s
];
class SlowE2eFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rank = (file: TestSpecification) => {
      const at = slowE2e.findIndex((slow) => file.moduleId.endsWith(slow));
      return at === -1 ? slowE2e.length : at;
    };
    const isE2e = (file: TestSpecification) => file.project.name === 'e2e';
    const sorted = await super.sort(files);
    // In the e2e files' places (stable: the rest keep vitest's order), every other file in its own.
    const e2e = sorted.filter(isE2e).sort((a, b) => rank(a) - rank(b));
    let next = 0;
    return sorted.map((file) => (isE2e(file) ? e2e[next++]! : file));
  }
}

// The server, unit and component files share their worker's module graph (`isolate: false`): their
// modules are imported once a worker, not once a file. Of 8 server files on 2 workers, 49 s of CPU
// became 34 s; measured alone, unit took 108 → 74 s of CPU and component 118 → 59 s. Each server
// file still boots its own server (tests/server/harness.ts); on PGlite, on the worker's one database,
// emptied for it (pglite-lease.ts: the project alone took 537 → 363 s of CPU). A file that changes
// process-wide state (process.env, say) puts it back when done. The component files about a first
// load (a module loaded lazily, a cache that starts empty) keep a graph of their own: another file
// may have loaded that module or filled that cache already.
const sharedModules = { isolate: false };
const firstLoadFiles = [
  'tests/component/markdown-lazy.test.tsx',
  'tests/component/markdown-cache.test.tsx',
  'tests/component/toast.test.tsx',
];

// Server files that run in one of the two database passes only: what they check does not depend on
// the database, or is about one of the two. (Those about one database also skip themselves in the
// other pass, describe.skipIf; left out here, that pass does not even load them.)
const onceOnPglite = [
  // No database at all: configuration parsing, the maths worker pool, an event stream's pacing, the
  // reply gate's first words first, the tutor's wire client, the search filer's packing, the Node
  // server's own connection limits (its process on an embedded database in either pass: it is never
  // given a DATABASE_URL).
  'tests/server/auth/auth-config.test.ts',
  'tests/server/process/config.test.ts',
  'tests/server/chat/maths-pool.test.ts',
  'tests/server/http/sse.test.ts',
  'tests/server/http/stream-gate.test.ts',
  'tests/server/chat/completions.test.ts',
  'tests/server/chat/pack.test.ts',
  'tests/server/process/connections.test.ts',
  // The server's OpenAPI document and its static files: the same whatever the database.
  'tests/server/http/openapi.test.ts',
  'tests/server/auth/auth-openapi.test.ts',
  'tests/server/http/static-compressed.test.ts',
  'tests/server/http/static-sourcemaps.test.ts',
  // About the embedded database itself (its data dir, lock, backups) or a machine without PostgreSQL.
  'tests/server/db/db-backup.test.ts',
  'tests/server/db/pglite-thread.test.ts',
  'tests/server/db/pglite-statements.test.ts',
  'tests/server/db/upkeep.test.ts',
  'tests/server/db/pg-skip.test.ts',
  'tests/server/process/npm-start.test.ts',
  'tests/server/process/server-process.test.ts',
];
const postgresOnly = ['tests/server/db/two-servers-pg.test.ts'];

// React components in jsdom, with Testing Library.
const component = {
  environment: 'jsdom' as const,
  ...nodeGroup,
  // user-event types a key at a time through jsdom: a long form takes seconds on a busy 2-core runner.
  testTimeout: 15_000,
  include: ['tests/component/**/*.test.tsx'],
  setupFiles: ['tests/setup-dom.ts'],
  globals: true,
};

export default defineConfig({
  // Tests, like the app and the stories, may import the package by its public entries.
  resolve: { alias: packageAliases },
  test: {
    sequence: { sequencer: SlowE2eFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          ...nodeGroup,
          ...sharedModules,
          include: ['tests/unit/**/*.test.ts'],
        },
      },
      {
        extends: true,
        // The reference server over real HTTP; each test file boots one server on a migrated, empty
        // PGlite (the worker's, lent to one file at a time).
        test: {
          name: 'server',
          environment: 'node',
          ...nodeGroup,
          ...sharedModules,
          include: ['tests/server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...postgresOnly],
          globalSetup: [
            'tests/server/pglite-global-setup.ts',
            'tests/server/server-build-global-setup.ts',
          ],
          setupFiles: ['tests/server/built-workers.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        // The same tests on a real PostgreSQL: a throwaway cluster (or DATABASE_URL), one database a
        // file. Skipped, with a message, where PostgreSQL is not installed.
        test: {
          name: 'server-pg',
          environment: 'node',
          ...nodeGroup,
          ...sharedModules,
          include: ['tests/server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...onceOnPglite],
          globalSetup: [
            'tests/server/pg-global-setup.ts',
            'tests/server/server-build-global-setup.ts',
          ],
          setupFiles: ['tests/server/built-workers.ts'],
          env: { AYAH_TEST_DB: 'postgres' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        // The whole product: scripts/start.mjs on a scratch data dir, driven in Debian's Chromium.
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          ...e2eGroup,
          globalSetup: ['tests/e2e/pgdata-global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          ...component,
          name: 'component',
          ...sharedModules,
          setupFiles: [...component.setupFiles, 'tests/setup-dom-toaster.ts'],
          exclude: [...configDefaults.exclude, ...firstLoadFiles],
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: { ...component, name: 'component-first-load', include: firstLoadFiles },
      },
      {
        extends: true,
        plugins: [react(), tailwindcss()],
        optimizeDeps,
        test: {
          name: 'browser',
          ...browserGroup,
          setupFiles: ['tests/browser-teardown.ts'],
          include: ['tests/browser/**/*.test.tsx'],
          browser: browser(),
        },
      },
      {
        extends: true,
        // Story tests: every story renders and runs its play function in real Chromium. The addon
        // does not read vite.config, so the Tailwind plugin is added here.
        plugins: [tailwindcss(), storybookTest({ configDir: path.join(dirname, '.storybook') })],
        optimizeDeps,
        test: {
          name: 'stories',
          ...browserGroup,
          setupFiles: ['tests/browser-teardown.ts', 'tests/stories-teardown.ts'],
          browser: browser(),
        },
      },
    ],
  },
});
