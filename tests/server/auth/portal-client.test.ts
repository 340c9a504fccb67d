/**
 * `createHttpApi({ getPortalAssertion })` against the real server: the adapter exchanges the portal's
 * assertion itself before its first call (once, however many calls start together), renews an expired
 * access token with the refresh token, asks the portal again when the session cannot be renewed, and
 * signs out (onUnauthorized) only when even a new assertion is refused.
 */
import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { authSessions, users } from '../../../server/db/schema';
import { createHttpApi } from '../../../src/http';
import { ApiError } from '../../../src/lib/http-errors';
import { FakePortal } from '../fake-portal';
import { describeServer, useTestServer } from '../harness';

const portal = new FakePortal('EdDSA');
const stranger = new FakePortal('EdDSA');
let issuers = '';
beforeAll(async () => {
  await Promise.all([portal.start(), stranger.start()]);
  issuers = JSON.stringify([await portal.trusted('jwks')]);
});
afterAll(() => Promise.all([portal.close(), stranger.close()]));

const h = useTestServer({ env: () => ({ AYAH_TRUSTED_ISSUERS: issuers }) });

/** An Api signed in as a new portal student; counts the assertions it asked for. */
function portalApi(from: FakePortal = portal) {
  const sub = `student-${randomUUID().slice(0, 8)}`;
  const seen = { assertions: 0, unauthorized: 0 };
  const api = createHttpApi({
    baseURL: h.url,
    getPortalAssertion: () => {
      seen.assertions++;
      return from.assertion(sub, { claims: { name: 'Ali Portal' } });
    },
    onUnauthorized: () => void seen.unauthorized++,
  });
  return { api, seen };
}

describeServer('createHttpApi with getPortalAssertion', () => {
  it('exchanges the assertion before the first call, once for calls that start together', async () => {
    const { api, seen } = portalApi();
    const [me, again, goals] = await Promise.all([
      api.auth.me(),
      api.auth.me(),
      api.goals.listCurrent(),
    ]);
    expect(me.user.display_name).toBe('Ali Portal');
    expect(again.user.id).toBe(me.user.id);
    expect(goals).toBeDefined();
    expect(seen).toEqual({ assertions: 1, unauthorized: 0 });
  });

  it('renews an expired access token with the refresh token, without asking the portal', async () => {
    const { api, seen } = portalApi();
    const { user } = await api.auth.me();
    h.advanceClock(31 * 60_000);
    try {
      expect((await api.auth.me()).user.id).toBe(user.id);
    } finally {
      h.resetClock();
    }
    expect(seen).toEqual({ assertions: 1, unauthorized: 0 });
  });

  it('asks the portal for a new assertion when the session cannot be renewed', async () => {
    const { api, seen } = portalApi();
    const { user } = await api.auth.me();
    // Every session of the student ends (as after a password reset or a sign-out elsewhere).
    await h.database.db.update(users).set({ tokenVersion: 1 }).where(eq(users.id, user.id));
    await h.database.db
      .update(authSessions)
      .set({ revokedAt: new Date() })
      .where(eq(authSessions.userId, user.id));
    await h.database.notifications.caughtUp();
    const [a, b] = await Promise.all([api.auth.me(), api.chat.listSessions()]);
    expect(a.user.id).toBe(user.id);
    expect(b.sessions).toEqual([]);
    expect(seen).toEqual({ assertions: 2, unauthorized: 0 });
  });

  it('rejects with 401 and calls onUnauthorized when the portal is not trusted', async () => {
    const { api, seen } = portalApi(stranger);
    const error = await api.auth.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(seen.unauthorized).toBe(1);
  });
});
