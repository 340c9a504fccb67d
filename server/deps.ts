import type { Config } from './config';
import type { Database, Db } from './db';
import type { Logger } from './http/errors';
import type { Mailer } from './mailer';

/** What `createApp` needs; everything the server touches outside itself comes in here. */
export interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  logger?: Logger;
  /** The clock; tests move it forward to expire tokens. */
  now?: () => Date;
  /** The built app (`dist-app/`) to serve beside the API; null serves a placeholder page. */
  staticDir?: string | null;
}

/** What every feature's service receives. */
export interface Deps {
  db: Db;
  config: Config;
  mailer: Mailer;
  logger: Logger;
  now: () => Date;
}
