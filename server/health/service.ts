/** Whether the database answers, within a bound, for `GET /api/v1/health`. */
import type { Database } from '../db';
import { AppError } from '../http/errors';

const PING_TIMEOUT_MS = 2000;

/** Resolves once the database answers; 503 when it fails or stays silent for 2 s. */
export async function checkDatabase(database: Database): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS);
  });
  try {
    await Promise.race([database.ping(), timeout]);
  } catch {
    throw new AppError(503, 'Database unavailable');
  } finally {
    clearTimeout(timer);
  }
}
