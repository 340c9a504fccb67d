/**
 * A request that races its account's deletion (red team round 3, #10): the request has passed the
 * bearer check, then the account goes before its writes. It answers 401 (the account is gone), never
 * 500, and the log never holds what the student wrote.
 *
 * The race is made certain: a transaction holds the user's row, the send waits on it (PostgreSQL:
 * until it is seen waiting), the account is deleted in that transaction and committed.
 */
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { users } from '../../../server/db/schema';
import { describeServer, isFastApiError, onPostgres, useTestServer } from '../harness';

const h = useTestServer();

async function until(check: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeServer('a request racing the deletion of its account', () => {
  it('answers 401 and logs no message text', async () => {
    const user = await h.user();
    const api = h.as(user);
    // Warm the session cache, as a signed-in student's earlier requests would.
    expect((await api.get('/api/v1/auth/me')).status).toBe(200);
    const secret = 'my secret diary entry 7f3a9c';

    let sending: ReturnType<typeof api.post> | undefined;
    await h.database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from users where id = ${user.id} for update`);
      sending = api.post('/api/v1/chat/send', { messages: [{ role: 'user', content: secret }] });
      if (onPostgres) {
        await until(async () => {
          const rows = (await h.database.db.execute(
            sql`select 1 from pg_stat_activity where wait_event_type = 'Lock'
                and query ilike '%for no key update%'`,
          )) as { rows?: unknown[] };
          return (rows.rows ?? []).length > 0;
        });
      } else {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await tx.delete(users).where(eq(users.id, user.id));
    });
    const reply = await sending!;
    expect([401, 404]).toContain(reply.status);
    expect(isFastApiError(reply.body)).toBe(true);
    expect(h.logs.filter((line) => line.text.includes(secret))).toEqual([]);
  });
});
