/**
 * The example portal's tiny backend, run inside Ayah's server only when AYAH_DEMO_PORTAL=1: an
 * issuer with an Ed25519 key pair made at start, the page at /embed-demo, its bundle under
 * /embed-demo/assets/, and POST /embed-demo/assertion, which signs a 2-minute assertion for the
 * portal's (one, pretend) signed-in student. A real portal signs for the student of its own session,
 * on its own server, with a key it keeps; Ayah's server only ever sees the public half.
 */
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const PREFIX = '/embed-demo';
const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

const base64url = (value) => Buffer.from(value).toString('base64url');

/** `publicUrl`: where Ayah (and so this page) is reached; the assertions' audience. */
export function createDemoPortal({ publicUrl }) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const issuer = `${publicUrl}${PREFIX}`;
  const audience = publicUrl;
  const student = { sub: 'demo-student-1', name: 'Demo Student', email: 'demo@greenfield.example' };

  function assertion() {
    const now = Math.floor(Date.now() / 1000);
    const header = base64url(JSON.stringify({ alg: 'EdDSA', typ: 'JWT' }));
    const payload = base64url(
      JSON.stringify({
        iss: issuer,
        aud: audience,
        iat: now,
        exp: now + 120,
        jti: randomUUID(),
        ...student,
      }),
    );
    const signature = sign(null, Buffer.from(`${header}.${payload}`), privateKey);
    return `${header}.${payload}.${signature.toString('base64url')}`;
  }

  const headers = (type) => ({
    'content-type': type,
    'cache-control': 'no-store',
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });

  async function file(name, type) {
    try {
      return new Response(await readFile(name), { headers: headers(type) });
    } catch {
      return new Response('Not built: run npm start with AYAH_DEMO_PORTAL=1', {
        status: 404,
        headers: headers('text/plain'),
      });
    }
  }

  /** The demo's own answer to a request, or null for Ayah's server to answer. */
  async function handle(request) {
    const { pathname } = new URL(request.url);
    if (pathname !== PREFIX && !pathname.startsWith(`${PREFIX}/`)) return null;
    if (pathname === PREFIX || pathname === `${PREFIX}/`) {
      return file(path.join(here, 'index.html'), 'text/html; charset=utf-8');
    }
    if (pathname === `${PREFIX}/assertion` && request.method === 'POST') {
      return new Response(JSON.stringify({ assertion: assertion() }), {
        headers: headers('application/json'),
      });
    }
    const asset = pathname.startsWith(`${PREFIX}/assets/`)
      ? path.basename(pathname.slice(`${PREFIX}/assets/`.length))
      : null;
    if (asset && /^[\w.-]+$/.test(asset)) {
      return file(
        path.join(here, 'dist', asset),
        TYPES[path.extname(asset)] ?? 'application/octet-stream',
      );
    }
    return new Response('Not Found', { status: 404, headers: headers('text/plain') });
  }

  return {
    /** This portal as an entry of AYAH_TRUSTED_ISSUERS (its public key; the private one stays here). */
    trustedIssuer: { issuer, audience, public_key: publicKey.export({ format: 'jwk' }) },
    /** Ayah's fetch handler with the demo's paths in front of it. */
    wrap:
      (next) =>
      async (request, ...rest) =>
        (await handle(request)) ?? next(request, ...rest),
  };
}
