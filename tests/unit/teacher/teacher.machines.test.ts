import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';

import { apiError, deferred } from '../../../fakes/chat';
import { fakeTeacherAdapter, sampleAlert } from '../../../fakes/teacher';
import { alertsLogic, alertsMachine } from '../../../src/teacher/alerts.machine';
import { canAcknowledge, canClose, openDetail } from '../../../src/teacher/alerts.selectors';
import { dashboardLogic, dashboardMachine } from '../../../src/teacher/dashboard.machine';
import { visibleStudents } from '../../../src/teacher/dashboard.selectors';
import type { AlertDetail, ClassDashboardData } from '../../../src/teacher/teacher.adapter';

const names = (actor: { getSnapshot(): Parameters<typeof visibleStudents>[0] }) =>
  visibleStudents(actor.getSnapshot()).map((s) => s.name);

describe('class dashboard machine', () => {
  it('fails loudly without an adapter', async () => {
    const actor = createActor(dashboardMachine, { input: {} }).start();
    await waitFor(actor, (s) => s.matches('failed'));
  });

  it('loads the classes, then the class asked for (or the first)', async () => {
    const board = deferred<ClassDashboardData>();
    const real = fakeTeacherAdapter();
    let calls = 0;
    const adapter = fakeTeacherAdapter(
      {},
      { dashboard: (id, o) => (calls++ === 0 ? board.promise : real.dashboard(id, o)) },
    );
    const actor = createActor(dashboardLogic(adapter), { input: { classId: 'unknown' } }).start();
    await waitFor(actor, (s) => s.matches('loadingClass'));
    expect(actor.getSnapshot().context.classId).toBe('c-7b');
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    board.resolve(await real.dashboard('c-7b'));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'class.pick', classId: 'c-8a' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.data?.class.name).toBe('Science 8A');
  });

  it('sorts (again: the other way) and filters what the view reads', async () => {
    const actor = createActor(dashboardLogic(fakeTeacherAdapter()), { input: {} }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(names(actor)).toEqual(['Ada Lovelace', 'Ben Okafor', 'Cai Chen']);
    actor.send({ type: 'table.sort', key: 'questions' });
    expect(names(actor)).toEqual(['Cai Chen', 'Ben Okafor', 'Ada Lovelace']);
    actor.send({ type: 'table.sort', key: 'questions' });
    expect(names(actor)).toEqual(['Ada Lovelace', 'Ben Okafor', 'Cai Chen']);
    actor.send({ type: 'table.filter', filter: 'no_goal' });
    expect(names(actor)).toEqual(['Ben Okafor']);
    actor.send({ type: 'table.filter', filter: 'inactive' });
    expect(names(actor)).toEqual(['Cai Chen']);
  });

  it('noClasses when the caller teaches none; failed then retry', async () => {
    const none = createActor(dashboardLogic(fakeTeacherAdapter({ noClasses: true })), {
      input: {},
    }).start();
    await waitFor(none, (s) => s.matches('noClasses'));
    let fail = true;
    const adapter = fakeTeacherAdapter(
      {},
      {
        dashboard: (id, o) =>
          fail ? Promise.reject(apiError(500)) : fakeTeacherAdapter().dashboard(id, o),
      },
    );
    const actor = createActor(dashboardLogic(adapter), { input: {} }).start();
    await waitFor(actor, (s) => s.matches('failed'));
    fail = false;
    actor.send({ type: 'dashboard.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
  });
});

describe('safety alerts machine', () => {
  it('fails loudly without an adapter', async () => {
    const actor = createActor(alertsMachine, { input: {} }).start();
    await waitFor(actor, (s) => s.matches('failed'));
  });

  it('lists, opens (read: unread drops), acknowledges, then resolves with a note', async () => {
    const actor = createActor(alertsLogic(fakeTeacherAdapter()), { input: {} }).start();
    await waitFor(actor, (s) => s.matches('list'));
    expect(actor.getSnapshot().context.unread).toBe(1);
    actor.send({ type: 'alert.open', alertId: 'a-1' });
    await waitFor(actor, (s) => s.matches('detail'));
    expect(actor.getSnapshot().context.unread).toBe(0);
    expect(openDetail(actor.getSnapshot())?.messages[0]?.message).toBe('I want to hurt myself');
    expect(canAcknowledge(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'alert.acknowledge' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('detail'));
    expect(actor.getSnapshot().context.detail?.status).toBe('acknowledged');
    expect(canAcknowledge(actor.getSnapshot())).toBe(false);
    // An empty note resolves nothing.
    actor.send({ type: 'alert.resolve', note: '   ' });
    expect(actor.getSnapshot().matches('detail')).toBe(true);
    actor.send({ type: 'alert.resolve', note: 'Spoke with Ben' });
    await waitFor(actor, (s) => s.matches('detail') && s.context.detail?.status === 'resolved');
    expect(actor.getSnapshot().context.alerts[0]?.status).toBe('resolved');
    expect(canClose(actor.getSnapshot())).toBe(false);
  });

  it("opens a link's alert once the list is in; a failed action keeps the detail", async () => {
    const act = deferred<AlertDetail>();
    const adapter = fakeTeacherAdapter({}, { markFalsePositive: () => act.promise });
    const actor = createActor(alertsLogic(adapter), { input: { alertId: 'a-1' } }).start();
    await waitFor(actor, (s) => s.matches('detail'));
    actor.send({ type: 'alert.falsePositive', note: '' });
    expect(actor.getSnapshot().matches('acting')).toBe(true);
    act.reject(apiError(500));
    await waitFor(actor, (s) => s.matches('detail'));
    expect(actor.getSnapshot().context.actionFailed).toBe(true);
    expect(actor.getSnapshot().context.detail?.status).toBe('open');
  });

  it('failed list, then retry', async () => {
    let fail = true;
    const adapter = fakeTeacherAdapter(
      { alerts: [sampleAlert(), sampleAlert({ id: 'a-2', unread: false })] },
      {
        alerts: (q, o) =>
          fail ? Promise.reject(apiError(500)) : fakeTeacherAdapter().alerts(q, o),
      },
    );
    const actor = createActor(alertsLogic(adapter), { input: {} }).start();
    await waitFor(actor, (s) => s.matches('failed'));
    fail = false;
    actor.send({ type: 'alerts.retry' });
    await waitFor(actor, (s) => s.matches('list'));
  });
});
