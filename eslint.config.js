import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import storybook from 'eslint-plugin-storybook';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'server/dist/',
      'examples/portal/dist/',
      'dist-app/',
      'storybook-static/',
      'node_modules/',
      '.data/',
      '.test-results/',
      // Scratch of the build and the tests (.gitignore): the package's declarations before bundling.
      '.tmp*/',
      'coverage/',
      'server/db/migrations/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // One import order everywhere, fixed by `eslint --fix`: side effects first (their order kept, as
    // it may matter: a stylesheet before the code that relies on it), then packages, then relative paths.
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: { 'simple-import-sort/imports': 'error', 'simple-import-sort/exports': 'error' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  { files: ['**/*.tsx'], ...jsxA11y.flatConfigs.strict },
  ...storybook.configs['flat/recommended'],
  {
    // The library never reaches into the host app or the server.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/app/**', '**/server/**'], message: 'src/ is the published library.' },
          ],
        },
      ],
    },
  },
  {
    // The host app and the stories use the package as a portal would: through its public entries
    // (`ayah-coach`, `ayah-coach/<feature>`), never by reaching into the sources.
    files: ['app/**/*.{ts,tsx}', 'stories/**/*.{ts,tsx}', '.storybook/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src', '**/src/**'],
              message:
                "Import the package's public entries: 'ayah-coach' or 'ayah-coach/<feature>'.",
            },
          ],
        },
      ],
    },
  },
  {
    // Type-aware rules on the server (issue 21): a promise nobody awaits loses its error (and, on the
    // server, can end the process); a promise where a callback's return is ignored; a switch that
    // misses a case of a union.
    files: ['server/**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: { defaultProject: 'server/tsconfig.json' },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
    },
  },
);
