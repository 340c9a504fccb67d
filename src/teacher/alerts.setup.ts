import { assign, setup } from 'xstate';

import { stubActor } from '../lib/stub-actor';
import type { AlertDetail, AlertList } from './teacher.adapter';
import type { AlertAction, AlertsContext, AlertsEvent, AlertsInput } from './teacher.types';

const HOW = 'create the machine with alertsLogic(adapter)';

/** Types, actors (stubs until `alertsLogic(adapter)`) and actions of the safety alerts. */
export const alertsSetup = setup({
  types: {
    context: {} as AlertsContext,
    events: {} as AlertsEvent,
    input: {} as AlertsInput,
    tags: {} as 'loading' | 'busy',
  },
  actors: {
    alerts: stubActor<AlertList, { classId: string | null }>('alerts', HOW),
    alert: stubActor<AlertDetail, string>('alert', HOW),
    act: stubActor<AlertDetail, { alertId: string; action: AlertAction }>('act', HOW),
  },
  actions: {
    keepList: assign((_, output: AlertList) => ({ alerts: output.alerts, unread: output.unread })),
    /** The detail shown, and its row in the list brought up to date (read, its status). */
    showDetail: assign(({ context }, detail: AlertDetail) => {
      const wasUnread = context.alerts.some((a) => a.id === detail.id && a.unread);
      return {
        detail,
        openId: detail.id,
        actionFailed: false,
        unread: wasUnread ? Math.max(0, context.unread - 1) : context.unread,
        alerts: context.alerts.map((a) =>
          a.id === detail.id
            ? { ...a, status: detail.status, note: detail.note, unread: false }
            : a,
        ),
      };
    }),
  },
});
