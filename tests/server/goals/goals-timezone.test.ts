/**
 * Weeks and days in the student's own time zone (X-Timezone), over real HTTP on PGlite and PostgreSQL:
 * zones on both sides of UTC around midnight and Monday, and the week of the US spring DST change.
 */
import { afterEach, expect, it } from 'vitest';

import { localDay, resolveTimeZone } from '../../../server/http/timezone';
import { describeServer, type TestUser, useTestServer } from '../harness';

const h = useTestServer();
const G = '/api/v1/goal';
const LA = 'America/Los_Angeles'; // UTC−8, UTC−7 from 8 March 2026, 02:00
const TOKYO = 'Asia/Tokyo'; // UTC+9, no DST

/** Sets the server's clock to `iso`. */
function at(iso: string) {
  h.resetClock();
  h.advanceClock(Date.parse(iso) - h.now().getTime());
}

afterEach(() => h.resetClock());

function call(user: TestUser, zone: string | null) {
  const headers: Record<string, string> = zone ? { 'x-timezone': zone } : {};
  const options = { token: user.token, headers };
  return {
    get: (route: string) => h.request('GET', route, undefined, options),
    post: (route: string, body: unknown) => h.request('POST', route, body, options),
  };
}

const goalBody = { subject: 'math', goal_type: 'problems_solved', target_value: 2 };
const ids = (reply: { body: { goals: { _id: string }[] } }) => reply.body.goals.map((g) => g._id);

describeServer('goals in the caller’s time zone', () => {
  it('accepts IANA names only, else UTC', () => {
    expect(resolveTimeZone(LA)).toBe(LA);
    expect(resolveTimeZone('america/los_angeles')).toBe(LA);
    expect(resolveTimeZone('UTC')).toBe('UTC');
    for (const bad of [undefined, null, '', 'Mars/Olympus_Mons', '+05:00', 'UTC+3', 'x'.repeat(80)])
      expect(resolveTimeZone(bad), String(bad)).toBe('UTC');
    expect(localDay(new Date('2026-03-04T03:30:00Z'), LA)).toBe('2026-03-03');
    expect(localDay(new Date('2026-03-04T20:00:00Z'), TOKYO)).toBe('2026-03-05');
  });

  it('counts streak days and history days in the zone, on both sides of UTC', async () => {
    at('2026-03-04T03:30:00Z'); // LA: Tue 3 March 19:30; UTC: Wed 4 March; Tokyo: Wed 4 March 12:30
    const user = await h.user();
    const id = (await call(user, null).post(G, { ...goalBody, target_value: 50 })).body.goal._id;
    await call(user, null).post(`${G}/${id}/progress`, { value: 1 });
    at('2026-03-04T20:00:00Z'); // LA: Wed 4 March 12:00; UTC: Wed 4 March; Tokyo: Thu 5 March 05:00
    await call(user, null).post(`${G}/${id}/progress`, { value: 1 });

    const streak = async (zone: string | null) => (await call(user, zone).get(`${G}/streak`)).body;
    expect(await streak(null)).toEqual({ streak: 1 });
    expect(await streak('UTC')).toEqual({ streak: 1 });
    expect(await streak(LA)).toEqual({ streak: 2 });
    expect(await streak(TOKYO)).toEqual({ streak: 2 });
    expect(await streak('Not/AZone')).toEqual({ streak: 1 });

    const days = async (zone: string | null) =>
      (await call(user, zone).get(`${G}/${id}/progress`)).body.data.map(
        (d: { date: string; total_value: number }) => [d.date, d.total_value],
      );
    expect(await days(null)).toEqual([['2026-03-04', 2]]);
    expect(await days(LA)).toEqual([
      ['2026-03-04', 1],
      ['2026-03-03', 1],
    ]);
    expect(await days(TOKYO)).toEqual([
      ['2026-03-05', 1],
      ['2026-03-04', 1],
    ]);

    // Tokyo's Thursday is over by 15:00 UTC: the streak holds through Friday, then breaks.
    at('2026-03-06T14:00:00Z'); // Tokyo: Fri 6 March 23:00 — yesterday (Thursday) counts
    expect(await streak(TOKYO)).toEqual({ streak: 2 });
    at('2026-03-06T15:30:00Z'); // Tokyo: Sat 7 March 00:30 — Friday had nothing
    expect(await streak(TOKYO)).toEqual({ streak: 0 });
  });

  it('starts the week at Monday midnight in the zone (goals and completed-in-week)', async () => {
    at('2026-03-09T03:00:00Z'); // LA: Sun 8 March 20:00 (last week); UTC and Tokyo: Monday 9 March
    const user = await h.user();
    const id = (await call(user, LA).post(G, goalBody)).body.goal._id;
    await call(user, LA).post(`${G}/${id}/progress`, { value: 2 }); // 100 %

    at('2026-03-09T06:00:00Z'); // LA: Sun 8 March 23:00, still last week
    expect(ids((await call(user, LA).get(G)) as never)).toEqual([id]);
    expect((await call(user, LA).get(`${G}/completed-in-week`)).body).toEqual({ count: 1 });

    at('2026-03-09T09:00:00Z'); // LA: Mon 9 March 01:00 (PDT), a new week
    expect(ids((await call(user, LA).get(G)) as never)).toEqual([]);
    expect((await call(user, LA).get(`${G}/completed-in-week`)).body).toEqual({ count: 0 });
    for (const zone of [null, 'UTC', TOKYO]) {
      expect(ids((await call(user, zone).get(G)) as never), String(zone)).toEqual([id]);
      expect((await call(user, zone).get(`${G}/completed-in-week`)).body).toEqual({ count: 1 });
    }
    // Every week's list still has it.
    expect(ids((await call(user, LA).get(`${G}/all`)) as never)).toEqual([id]);
  });

  it('counts the 3-subject limit within the zone’s week', async () => {
    at('2026-03-09T06:00:00Z'); // LA: Sunday 23:00; UTC: Monday 06:00
    const user = await h.user();
    for (const subject of ['math', 'science', 'history'])
      expect((await call(user, LA).post(G, { ...goalBody, subject })).status).toBe(201);
    // Tokyo's week began on Sunday 15:00 UTC: the three goals are in it too.
    expect((await call(user, TOKYO).post(G, { ...goalBody, subject: 'english' })).status).toBe(400);
    at('2026-03-09T09:00:00Z'); // LA: Monday 01:00, a new week in LA only
    expect((await call(user, LA).post(G, { ...goalBody, subject: 'english' })).status).toBe(201);
    // In UTC all four were created this Monday: one week, four subjects, the fourth from LA's new week.
    expect(ids((await call(user, 'UTC').get(G)) as never)).toHaveLength(4);
    expect(ids((await call(user, LA).get(G)) as never)).toHaveLength(1);
  });

  it('keeps Monday at midnight across the spring DST change (LA, 8 March 2026)', async () => {
    // The week of 2 March begins at 08:00 UTC (PST) and ends at 07:00 UTC on 9 March (PDT).
    at('2026-03-09T06:30:00Z'); // Sun 8 March 23:30 PDT: the old week
    const user = await h.user();
    const sunday = (await call(user, LA).post(G, goalBody)).body.goal._id;
    await call(user, LA).post(`${G}/${sunday}/progress`, { value: 1 });
    at('2026-03-09T07:30:00Z'); // Mon 9 March 00:30 PDT: the new week (a fixed −8 h would say Sunday)
    const monday = (await call(user, LA).post(G, { ...goalBody, subject: 'science' })).body.goal
      ._id;
    expect(ids((await call(user, LA).get(G)) as never)).toEqual([monday]);
    // Sunday had progress, Monday not yet: the streak holds at 1 through Monday.
    expect((await call(user, LA).get(`${G}/streak`)).body).toEqual({ streak: 1 });

    at('2026-03-08T07:30:00Z'); // Sat 7 March 23:30 PST, before the change
    await call(user, LA).post(`${G}/${sunday}/progress`, { value: 1 });
    at('2026-03-09T07:30:00Z');
    expect((await call(user, LA).get(`${G}/streak`)).body).toEqual({ streak: 2 });
    const history = (await call(user, LA).get(`${G}/${sunday}/progress`)).body.data;
    expect(history.map((d: { date: string }) => d.date)).toEqual(['2026-03-08', '2026-03-07']);
  });
});
