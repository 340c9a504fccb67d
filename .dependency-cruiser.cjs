/**
 * The declared layers of the repo, checked in `npm test` (scripts/test.mjs) by dependency-cruiser:
 * `npx depcruise src app server stories fakes .storybook --config .dependency-cruiser.cjs`.
 *
 *   src/            the published library: never reaches into the host app, the server, benches or tests,
 *                   nor a Node built-in
 *   src/<feature>/  auth, chat, goals, wallet, settings, teacher, markdown: a feature uses another only through
 *                   that feature's public entry (its index.ts), as a portal would
 *   src/lib, src/ui the shared layers under every feature: they import no feature
 *   app/, stories/  the host app and the stories use the package's public entries (`ayah-coach/…`,
 *                   resolved by tsconfig paths), never a src/ path
 *   server/         its own package: the spec's rules through 'ayah-coach/rules', never a src/ path
 *   fakes/          one fake adapter per feature, shared by tests and stories: stories never import tests/
 *   server/<domain>/ auth, chat, goals, points, memory, tutor, legal, health (and lti, classes …): a domain
 *                   imports no other domain; it asks for a narrow port that server/app.ts hands it
 *                   In a domain, routes.ts sits over schemas.ts and service.ts, and asks its service rather than
 *                   the database (nothing of server/db/ but types in a routes.ts)
 *   server/http, server/db, server/llm  the shared layers under every domain: they import none
 * and nowhere an import cycle, type-only imports included.
 */
const FEATURES = '(auth|chat|goals|wallet|settings|teacher|markdown)';
/** The server's shared layers, under every domain (see server-domain-imports-no-domain). */
const SERVER_SHARED = '(?:http|db|llm)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: modules that cannot be understood, tested or split apart alone.',
      from: { path: '^(src|app|server|stories)/' },
      to: { circular: true },
    },
    {
      name: 'library-stays-inside',
      severity: 'error',
      comment:
        'src/ is the published library: it never imports the host app, the server, benches or tests.',
      from: { path: '^src/' },
      to: { path: '^(app|server|bench|tests|stories|examples|fakes)/' },
    },
    {
      name: 'library-runs-in-the-browser',
      severity: 'error',
      comment:
        "src/ runs in a portal's page: no Node built-in (fs, crypto, path …). Node's types reach the library's type check through ofetch's, so this rule, not src/tsconfig.json, keeps them out.",
      from: { path: '^src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'feature-through-its-entry',
      severity: 'error',
      comment:
        "A feature uses another feature only through that feature's index.ts (e.g. chat imports '../markdown'), never its internals.",
      from: { path: `^src/${FEATURES}/` },
      to: { path: `^src/${FEATURES}/`, pathNot: ['^src/$1/', `^src/${FEATURES}/index\\.ts$`] },
    },
    {
      name: 'shared-layers-import-no-feature',
      severity: 'error',
      comment: 'src/lib and src/ui sit under every feature: they import none.',
      from: { path: '^src/(lib|ui)/' },
      to: { path: `^src/${FEATURES}(/|\\.ts$)` },
    },
    {
      name: 'host-uses-public-entries',
      severity: 'error',
      comment:
        "app/ and stories/ import the package as a portal would: 'ayah-coach' or 'ayah-coach/<entry>' (tsconfig paths), never a src/ path.",
      from: { path: '^(app|stories|\\.storybook)/' },
      to: { path: '^src/', dependencyTypesNot: ['aliased-tsconfig-paths'] },
    },
    {
      name: 'stories-and-fakes-import-no-tests',
      severity: 'error',
      comment:
        'Stories and the fakes they share with tests stand on their own: they never import tests/ (tests import them).',
      from: { path: '^(stories|fakes|\\.storybook)/' },
      to: { path: '^tests/' },
    },
    {
      name: 'server-uses-the-rules-entry',
      severity: 'error',
      comment:
        "The server is its own package: it takes the spec's rules through 'ayah-coach/rules', as an installed server would, never a src/ path.",
      from: { path: '^server/' },
      to: { path: '^src/', dependencyTypesNot: ['aliased-tsconfig-paths'] },
    },
    {
      name: 'server-domain-imports-no-domain',
      severity: 'error',
      comment:
        'A server domain (every folder of server/ but the shared layers) never imports another domain: it ' +
        'asks for a narrow port (PointsLedger, TutorChat, GoalsReader …) that server/app.ts, the one ' +
        'composition root, builds and hands in. Shared, below every domain: server/http (paging, ids, ' +
        'openapi helpers, rate limits, the auth context), server/db (schema, locks, notifications), ' +
        'server/llm (the model client, prompt, safety, maths) and the files at server/ top level other ' +
        'than app.ts and main.ts (deps, config, mailer, ports: types and settings, no domain logic).',
      from: { path: `^server/(?!${SERVER_SHARED}/)([^/]+)/` },
      to: { path: '^server/([^/]+)/', pathNot: ['^server/$1/', `^server/${SERVER_SHARED}/`] },
    },
    {
      name: 'server-domain-routes-on-top',
      severity: 'error',
      comment:
        "In a server domain (and each of auth's sub-folders) routes.ts, the HTTP side, sits over " +
        'schemas.ts and service.ts: a service or schemas file never imports a routes file.',
      from: { path: `^server/(?!${SERVER_SHARED}/).+/(service|schemas)\\.ts$` },
      to: { path: '(^|/)routes\\.ts$' },
    },
    {
      name: 'server-routes-ask-their-service',
      severity: 'error',
      comment:
        "A server domain's routes.ts reads and writes through its service (service.ts), never the " +
        'database itself: nothing of server/db/ but types.',
      from: { path: `^server/(?!${SERVER_SHARED}/).+/routes\\.ts$` },
      to: {
        path: '^server/db/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'server-shared-layers-import-no-domain',
      severity: 'error',
      comment:
        "server/http, server/db, server/llm and server/'s top-level files sit under every domain: they " +
        'import none, and nothing but main.ts imports the composition root (app.ts). config.ts and ' +
        "demo-portal.ts read the settings main.ts starts with, so they may use a domain's settings " +
        'parser (auth/portal/trusted-issuers.ts).',
      from: {
        path: `^server/(${SERVER_SHARED}/|[^/]+\\.ts$)`,
        pathNot: '^server/(app|main|config|demo-portal)\\.ts$',
      },
      to: {
        path: ['^server/[^/]+/', '^server/app\\.ts$'],
        pathNot: `^server/${SERVER_SHARED}/`,
      },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'An import that resolves to nothing: a typo, or a dependency missing from package.json.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|dist-app|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
