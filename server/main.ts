/**
 * Runs the server: configuration from the environment, the database opened and migrated, the API and
 * the built app (`dist-app/`, when present) on one port. `npm start` builds it (server/build.mjs) and
 * runs server/dist/main.js through scripts/start.mjs.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db';
import { createMailer } from './mailer';
import { loadDemoPortal } from './demo-portal';
import { warmUpMaths } from './llm/tools';

/** The built app to serve beside the API: `AYAH_APP_DIR`, else `dist-app/` in the working directory. */
const appDir = path.resolve(process.env.AYAH_APP_DIR ?? 'dist-app');

async function main() {
  const config = loadConfig();
  // The example portal at /embed-demo, and its issuer trusted: only with AYAH_DEMO_PORTAL=1.
  const demo = process.env.AYAH_DEMO_PORTAL === '1' ? await loadDemoPortal(config) : null;
  const database = await openDatabase(
    config.databaseUrl
      ? { url: config.databaseUrl }
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

  const fetch = demo ? demo.wrap(app.fetch) : app.fetch;
  const server = serve({ fetch, port: config.port }, (info) => {
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
    if (demo) console.log(`Example portal: ${config.publicUrl}/embed-demo (AYAH_DEMO_PORTAL=1)`);
    if (!staticDir)
      console.log('The app is not built (no dist-app/index.html): serving a placeholder page.');
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: shutting down`);
    server.close(async () => {
      await mailer.flush();
      await database.close();
      process.exit(0);
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('Ayah failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
