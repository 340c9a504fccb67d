import { assign, fromPromise } from 'xstate';

import { alertsSetup } from './alerts.setup';
import type { TeacherAdapter } from './teacher.adapter';
import type { AlertAction } from './teacher.types';

/**
 * Safety alerts: the list (newest first, an unread count), one alert's detail, and the actions on
 * it — acknowledge, resolve with a note, mark as a false positive. A link's alert (`alertId`) opens
 * once the list has loaded.
 */
export const alertsMachine = alertsSetup.createMachine({
  id: 'alerts',
  context: ({ input }) => ({
    classId: input.classId ?? null,
    alerts: [],
    unread: 0,
    openId: input.alertId ?? null,
    detail: null,
    actionFailed: false,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'alerts',
        input: ({ context }) => ({ classId: context.classId }),
        onDone: [
          {
            guard: ({ context }) => context.openId !== null,
            target: 'opening',
            actions: { type: 'keepList', params: ({ event }) => event.output },
          },
          { target: 'list', actions: { type: 'keepList', params: ({ event }) => event.output } },
        ],
        onError: 'failed',
      },
    },
    failed: {
      on: { 'alerts.retry': 'loading' },
    },
    list: {
      on: {
        'alert.open': {
          target: 'opening',
          actions: assign({ openId: ({ event }) => event.alertId }),
        },
      },
    },
    opening: {
      tags: ['loading'],
      invoke: {
        src: 'alert',
        input: ({ context }) => context.openId!,
        onDone: {
          target: 'detail',
          actions: { type: 'showDetail', params: ({ event }) => event.output },
        },
        onError: { target: 'list', actions: assign({ openId: null }) },
      },
    },
    detail: {
      on: {
        'alert.close': { target: 'list', actions: assign({ openId: null, detail: null }) },
        'alert.open': {
          target: 'opening',
          actions: assign({ openId: ({ event }) => event.alertId }),
        },
        'alert.acknowledge': {
          guard: ({ context }) => context.detail?.status === 'open',
          target: 'acting',
        },
        'alert.resolve': {
          guard: ({ context, event }) =>
            event.note.trim() !== '' &&
            (context.detail?.status === 'open' || context.detail?.status === 'acknowledged'),
          target: 'acting',
        },
        'alert.falsePositive': {
          guard: ({ context }) =>
            context.detail?.status === 'open' || context.detail?.status === 'acknowledged',
          target: 'acting',
        },
      },
    },
    acting: {
      tags: ['busy'],
      invoke: {
        src: 'act',
        input: ({ context, event }) => ({
          alertId: context.openId!,
          action: event as AlertAction,
        }),
        onDone: {
          target: 'detail',
          actions: { type: 'showDetail', params: ({ event }) => event.output },
        },
        onError: { target: 'detail', actions: assign({ actionFailed: true }) },
      },
    },
  },
});

/** The alerts machine over `adapter`'s calls. */
export function alertsLogic(adapter: TeacherAdapter) {
  return alertsMachine.provide({
    actors: {
      alerts: fromPromise(({ input, signal }) =>
        adapter.alerts(input.classId ? { classId: input.classId } : {}, { signal }),
      ),
      alert: fromPromise(({ input, signal }) => adapter.alert(input, { signal })),
      act: fromPromise(({ input: { alertId, action }, signal }) => {
        if (action.type === 'alert.acknowledge') return adapter.acknowledge(alertId, { signal });
        if (action.type === 'alert.resolve')
          return adapter.resolve(alertId, action.note.trim(), { signal });
        return adapter.markFalsePositive(alertId, action.note.trim(), { signal });
      }),
    },
  });
}
