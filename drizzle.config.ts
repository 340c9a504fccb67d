import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate` turns server/db/schema.ts into the SQL migrations checked in under
// server/db/migrations; the server applies them on start (PGlite and PostgreSQL alike).
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
