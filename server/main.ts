/**
 * Runs the server: configuration from the environment, the database opened and migrated, the API and
 * the built app (`dist-app/`, when present) on one port. `npm start` builds it (server/build.mjs) and
 * runs server/dist/main.js through scripts/start.mjs.
 */
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';

import { serve } from '@hono/node-server';

import { createApp } from './app';
import { createAlertMail, startAlertMailSweep } from './classes/alert-mail';
import { loadConfig } from './config';
import { openDatabase } from './db';
import { secureDataDir } from './db/data-dir';
import { startDatabaseUpkeep } from './db/upkeep';
import { loadDemoPortal } from './demo-portal';
import { capConnectionsPerAddress, connectionOptions } from './http/connections';
import { warmUpMaths } from './llm/tools';
import { createMailer } from './mailer';
import { startConversionSweep } from './points/sweep';

/** The built app to serve beside the API: `AYAH_APP_DIR`, else `dist-app/` in the working directory. */
const appDir = path.resolve(process.env.AYAH_APP_DIR ?? 'dist-app');

/**
 * On SIGTERM / SIGINT, replies in progress (a streaming tutor reply above all) get this long to finish
 * before their connections are cut: `AYAH_SHUTDOWN_GRACE_MS`, 25 s by default (inside the 30 s that
 * Docker and Kubernetes wait before SIGKILL).
 */
const shutdownGraceMs = Number(process.env.AYAH_SHUTDOWN_GRACE_MS) || 25_000;

async function main() {
  const config = loadConfig();
  // The data dir holds the embedded database, the outbox (mails with links) and the JWT secret: only
  // this user may read it (umask 077 from here on, existing files brought to 0600 / 0700).
  secureDataDir(config.dataDir);
  // The example portal at /embed-demo, and its issuer trusted: only with AYAH_DEMO_PORTAL=1.
  const demo = process.env.AYAH_DEMO_PORTAL === '1' ? await loadDemoPortal(config) : null;
  const database = await openDatabase(
    config.databaseUrl
      ? { url: config.databaseUrl, poolSize: config.databasePoolSize }
      : { dataDir: path.join(config.dataDir, 'pgdata') },
  );
  await database.migrate();
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    logger: console,
  });
  const staticDir = existsSync(path.join(appDir, 'index.html')) ? appDir : null;
  const app = createApp({ config, database, mailer, staticDir });
  // Conversions interrupted by a crash are refunded at start, then checked every minute.
  const stopSweep = startConversionSweep({
    db: database.db,
    now: () => new Date(),
    logger: console,
  });

  // The embedded database has no autovacuum: vacuumed and analyzed here, in its quiet spells.
  const stopUpkeep = startDatabaseUpkeep(database, console);

  // Alert mails still owed (a restart, a mail server down) go out at start, then every 15 s.
  const stopAlertMail = startAlertMailSweep(
    createAlertMail({ db: database.db, now: () => new Date(), config, mailer, logger: console }),
    console,
  );

  const fetch = demo ? demo.wrap(app.fetch) : app.fetch;
  const server = serve(
    { fetch, port: config.port, serverOptions: connectionOptions(config) },
    (info) => {
      // The maths engines (mathsteps, mathjs) take seconds to load: load them now, not in a reply.
      warmUpMaths();
      const where = database.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
      console.log(
        `Ayah is listening on http://localhost:${info.port} (public URL ${config.publicUrl})`,
      );
      console.log(
        `Database: ${where}; mail: ${config.smtpUrl ? 'SMTP' : `outbox in ${config.dataDir}/outbox`}`,
      );
      console.log(
        config.llm.baseUrl && config.llm.model
          ? `Tutor: model ${config.llm.model} at ${config.llm.baseUrl}`
          : 'Tutor: offline coach (step-by-step maths, answer checks, study plans). To connect a model, set ' +
              'AYAH_LLM_BASE_URL (any OpenAI-compatible endpoint, e.g. http://localhost:11434/v1) and ' +
              'AYAH_LLM_MODEL (and AYAH_LLM_API_KEY if it needs one), then restart.',
      );
      // A portal that cannot call or sign in is misconfigured here: say what is allowed and trusted.
      console.log(
        config.allowedOrigins.length
          ? `Portals allowed to call the API from a browser (AYAH_ALLOWED_ORIGINS): ${config.allowedOrigins.join(', ')}`
          : 'Portals allowed to call the API from a browser (AYAH_ALLOWED_ORIGINS): none, only this app',
      );
      console.log(
        config.trustedIssuers.length
          ? `Portal sign-in trusted (AYAH_TRUSTED_ISSUERS): ${config.trustedIssuers
              .map(
                (t) =>
                  `${t.issuer} for ${t.audience} (${t.keys.kind === 'jwks' ? `keys at ${t.keys.url}` : 'one public key'})`,
              )
              .join('; ')}`
          : 'Portal sign-in trusted (AYAH_TRUSTED_ISSUERS): none',
      );
      const ownLegal = ['terms', 'privacy'].filter(
        (n) => !existsSync(path.join(config.dataDir, `${n}.md`)),
      );
      if (ownLegal.length)
        console.log(
          `Legal pages: students see the default ${ownLegal.map((n) => (n === 'terms' ? 'terms of use' : 'privacy notice')).join(' and ')}. ` +
            `To show your school's own, write ${ownLegal.map((n) => `${n}.md`).join(' and ')} (markdown) into ${config.dataDir}.`,
        );
      if (demo) console.log(`Example portal: ${config.publicUrl}/embed-demo (AYAH_DEMO_PORTAL=1)`);
      if (!staticDir)
        console.log('The app is not built (no dist-app/index.html): serving a placeholder page.');
    },
  );

  capConnectionsPerAddress(server as Server, config.connectionsPerAddress);

  // Graceful shutdown: stop accepting, close idle keep-alive connections (again as each reply ends),
  // give replies in progress the grace period, then cut what is left, close the database (PGlite
  // writes its pages and releases the data dir's lock) and exit 0.
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: shutting down (replies in progress get ${shutdownGraceMs / 1000} s)`);
    const http = server as Partial<Pick<Server, 'closeIdleConnections' | 'closeAllConnections'>>;
    const idle = setInterval(() => http.closeIdleConnections?.(), 100);
    const cut = setTimeout(() => {
      console.warn('Replies still in progress after the grace period: closing their connections.');
      http.closeAllConnections?.();
    }, shutdownGraceMs);
    // server.close ignores what its callback returns: the stop runs as its own task, which
    // reports its own failure and exits.
    const stop = async () => {
      clearInterval(idle);
      clearTimeout(cut);
      try {
        await app.stop();
        await stopSweep();
        await stopAlertMail();
        await stopUpkeep();
        await mailer.flush();
        await database.close();
        console.log('Stopped.');
        process.exit(0);
      } catch (error) {
        console.error('Shutdown failed:', error);
        process.exit(1);
      }
    };
    server.close(() => void stop());
    http.closeIdleConnections?.();
    setTimeout(() => process.exit(1), shutdownGraceMs + 15_000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('Ayah failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
