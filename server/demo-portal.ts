/**
 * AYAH_DEMO_PORTAL=1 only: the example portal of examples/portal/ (its page at /embed-demo and its
 * tiny issuer) in front of the server, and that issuer trusted. The demo is loaded from the working
 * directory at run time, never bundled into server/dist/: with the flag off none of it is loaded.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { parseTrustedIssuers } from './auth/portal/trusted-issuers';
import type { Config } from './config';

interface DemoPortal {
  trustedIssuer: unknown;
  /** The server's fetch handler with the demo's paths answered in front of it. */
  wrap<F extends (request: Request, ...rest: never[]) => unknown>(next: F): F;
}

export async function loadDemoPortal(config: Config): Promise<DemoPortal> {
  const dir = path.resolve(process.env.AYAH_DEMO_PORTAL_DIR ?? 'examples/portal');
  const module = (await import(pathToFileURL(path.join(dir, 'backend.mjs')).href)) as {
    createDemoPortal: (options: { publicUrl: string }) => DemoPortal;
  };
  const demo = module.createDemoPortal({ publicUrl: config.publicUrl });
  config.trustedIssuers = [
    ...config.trustedIssuers,
    ...parseTrustedIssuers(JSON.stringify([demo.trustedIssuer])),
  ];
  return demo;
}
