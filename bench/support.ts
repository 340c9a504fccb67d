/**
 * What the server benchmarks share: their `--name value` arguments and `startServer`, the one way a
 * bench boots the real app (its database opened and migrated, a data dir of its own, loopback).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { serve } from '@hono/node-server';

import { createApp } from '../server/app';
import { type Config, loadConfig } from '../server/config';
import type { Database, DatabaseOptions } from '../server/db';
import { openDatabase } from '../server/db';
import { capConnectionsPerAddress } from '../server/http/connections';
import { createMailer } from '../server/mailer';

/** A numeric `--name value` argument, or `fallback`. */
export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

export interface StartedServer {
  url: string;
  config: Config;
  database: Database;
  /** Does now what the app leaves for a quiet spell: the chat's search filing (app.ts `settle`). */
  settle(): Promise<void>;
  /** Stops listening, lets replies still running end (`settleMs`), closes the database, removes the data dir. */
  close(): Promise<void>;
}

export interface ServerOptions {
  /** PGlite (`{dataDir}`, null: in memory) or PostgreSQL (`{url}`). */
  database: DatabaseOptions;
  /** The environment loadConfig reads, besides the data dir (`AYAH_DATA_DIR`, always a fresh one). */
  env?: Record<string, string>;
  /** Settings set over what the environment gave. */
  overrides?: (config: Config) => Partial<Config>;
  /** The data dir's prefix in the temp dir. */
  name?: string;
  /** How long `close` waits between the listener and the database (replies given up on still run). */
  settleMs?: number;
  /**
   * Holds each client address to `AYAH_CONNECTIONS_PER_ADDRESS` connections as main.ts does: a
   * bench whose clients all come from 127.0.0.1, as a school's do from its NAT address.
   */
  capConnections?: boolean;
}

/** The real app over a freshly migrated database on a free loopback port, logging errors only. */
export async function startServer(options: ServerOptions): Promise<StartedServer> {
  const database = await openDatabase(options.database);
  await database.migrate();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), options.name ?? 'ayah-bench-'));
  const quiet = { info: () => {}, warn: () => {}, error: console.error };
  const loaded = loadConfig({ ...options.env, AYAH_DATA_DIR: dataDir });
  const config = { ...loaded, ...options.overrides?.(loaded) };
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
  // A bench's client keeps its connections across a long seed or scan (PGlite on this thread blocks
  // the loop meanwhile): a keep-alive expiring then would close an idle socket just as the next
  // request goes out on it (ECONNRESET). Longer than main.ts's AYAH_KEEP_ALIVE_MS for that.
  if ('keepAliveTimeout' in server) server.keepAliveTimeout = 300_000;
  if (options.capConnections)
    capConnectionsPerAddress(server as Server, config.connectionsPerAddress);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    config,
    database,
    settle: () => app.settle(),
    close: async () => {
      server.close();
      if (options.settleMs) await new Promise((resolve) => setTimeout(resolve, options.settleMs));
      await app.stop();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
