/**
 * README's "Embed Ayah in your portal" is code a portal developer copies, so it is held to the real
 * API: its page script type-checks against the package's entries (and a spoilt copy does not, so the
 * check is not vacuous), and its `jose` signer, run as written, signs an assertion that a real server,
 * configured with the README's own AYAH_TRUSTED_ISSUERS and AYAH_ALLOWED_ORIGINS, exchanges for a
 * session, answering the page's origin with CORS headers.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, expect, it } from 'vitest';

import { JWT_TOKEN_TYPE } from '../../../server/auth/portal/service';
import { describeServer, onPostgres, useTestServer } from '../harness';

const root = path.resolve(import.meta.dirname, '../../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const section = readme.slice(
  readme.indexOf('## Embed Ayah in your portal'),
  readme.indexOf('\n## ', readme.indexOf('## Embed Ayah in your portal') + 3),
);

/** The fenced block of the section whose first line is `// <name>`. */
function block(name: string): string {
  const found = [...section.matchAll(/```[a-z]+\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((code) => code.startsWith(`// ${name}\n`));
  if (!found) throw new Error(`README's embed section has no block starting "// ${name}"`);
  return found;
}

/** The value of `NAME='…'` or `NAME=…` in the section's shell block. */
function setting(name: string): string {
  const match = new RegExp(`${name}=(?:'([^']*)'|(\\S+))`).exec(section);
  if (!match) throw new Error(`README's embed section does not set ${name}`);
  return match[1] ?? match[2]!;
}

// Inside the repo, so that the snippets resolve `jose`, React and the repo's tsconfig as a portal's would.
const scratch = path.join(
  root,
  'node_modules',
  '.cache',
  `readme-portal-${randomBytes(4).toString('hex')}`,
);
mkdirSync(scratch, { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const keys = generateKeyPairSync('ed25519');
const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const issuers = JSON.parse(setting('AYAH_TRUSTED_ISSUERS')) as Record<string, unknown>[];
const origin = setting('AYAH_ALLOWED_ORIGINS');

const h = useTestServer({
  env: () => ({
    // The README's entry, with this test's public key in place of its placeholder.
    AYAH_TRUSTED_ISSUERS: JSON.stringify(
      issuers.map((entry) => ({ ...entry, public_key: publicPem })),
    ),
    AYAH_ALLOWED_ORIGINS: origin,
  }),
});

// The type check does not touch the database: once, in the PGlite pass.
it.skipIf(onPostgres)(
  "the page script type-checks against the package's entries",
  () => {
    const page = block('portal.tsx');
    writeFileSync(path.join(scratch, 'portal.tsx'), page);
    // The same page with the goals board handed the chat's adapter: the check must catch it.
    const spoilt = page.replace(
      '<GoalsBoard adapter={api.goals}',
      '<GoalsBoard adapter={api.chat}',
    );
    expect(spoilt).not.toBe(page);
    writeFileSync(path.join(scratch, 'spoilt.tsx'), spoilt);
    // What a portal's bundler declares (Vite's client types, webpack's css-loader): stylesheet imports.
    writeFileSync(path.join(scratch, 'css.d.ts'), "declare module '*.css';\n");
    writeFileSync(
      path.join(scratch, 'tsconfig.json'),
      JSON.stringify({
        extends: path.join(root, 'tsconfig.json'),
        compilerOptions: { types: [], noEmit: true },
        include: [],
        files: ['css.d.ts', 'portal.tsx', 'spoilt.tsx'],
      }),
    );
    let output = '';
    try {
      // The repo's type checker (scripts/typecheck.mjs): TypeScript 7, 13 s of CPU → about 4 here.
      execFileSync(
        process.execPath,
        [path.join(root, 'node_modules/typescript-native/bin/tsc'), '-p', scratch],
        {
          encoding: 'utf8',
        },
      );
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
    const inSpoilt = (line: string) => line.includes('/spoilt.tsx(');
    expect(errors.filter((line) => !inSpoilt(line))).toEqual([]);
    expect(errors.filter(inSpoilt).join('\n')).toMatch(
      /'ChatAdapter' is missing .* from type 'GoalsAdapter'/,
    );
  },
  120_000,
);

describeServer("the README's signer and server settings", () => {
  it('sign an assertion the server exchanges, for a page whose origin may call it', async () => {
    writeFileSync(path.join(scratch, 'ayah-assertion.mjs'), block('ayah-assertion.mjs'));
    // The server files share a worker's process (isolate: false): the key goes once it is used.
    const before = process.env.PORTAL_PRIVATE_KEY;
    process.env.PORTAL_PRIVATE_KEY = keys.privateKey
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();
    let assertion: string;
    try {
      const { signAssertion } = (await import(path.join(scratch, 'ayah-assertion.mjs'))) as {
        signAssertion: (student: { id: string; name: string; email?: string }) => Promise<string>;
      };
      assertion = await signAssertion({ id: 'readme-student-1', name: 'Riley Reader' });
    } finally {
      if (before === undefined) delete process.env.PORTAL_PRIVATE_KEY;
      else process.env.PORTAL_PRIVATE_KEY = before;
    }

    const exchange = await h.post('/api/v1/auth/token-exchange', {
      subject_token: assertion,
      subject_token_type: JWT_TOKEN_TYPE,
    });
    expect(exchange.status).toBe(200);
    expect(exchange.body.user.display_name).toBe('Riley Reader');
    const me = await h.get('/api/v1/auth/me', { token: exchange.body.access_token });
    expect(me.status).toBe(200);

    // The portal's page, on the origin the README allows, may call the API from the browser.
    const preflight = await h.request('OPTIONS', '/api/v1/auth/me', undefined, {
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'authorization',
    );
  });
});
