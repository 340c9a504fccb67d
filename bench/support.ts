/** What the server benchmarks share: their `--name value` arguments and the app on loopback. */
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { serve } from '@hono/node-server';

import { createApp } from '../server/app';
import { type Config, loadConfig } from '../server/config';
import type { Database } from '../server/db';
import { createMailer } from '../server/mailer';

/** A numeric `--name value` argument, or `fallback`. */
export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

/** The real app over `database` on a free loopback port, logging errors only. */
export async function serveApp(
  database: Database,
  dataDir: string,
  overrides: Partial<Config> = {},
): Promise<{ url: string; config: Config; close(): void }> {
  const quiet = { info: () => {}, warn: () => {}, error: console.error };
  const config = { ...loadConfig({ AYAH_DATA_DIR: dataDir }), ...overrides };
  const app = createApp({
    config,
    database,
    logger: quiet,
    mailer: createMailer({
      smtpUrl: null,
      from: config.mailFrom,
      outboxDir: path.join(dataDir, 'outbox'),
      logger: quiet,
    }),
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  // PGlite runs on this thread: a long seed or scan blocks the loop, and a 5 s keep-alive expiring
  // meanwhile would close the idle socket just as the next request goes out on it (ECONNRESET).
  if ('keepAliveTimeout' in server) server.keepAliveTimeout = 300_000;
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    config,
    close: () => server.close(),
  };
}
