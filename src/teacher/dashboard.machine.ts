import { assign, fromPromise } from 'xstate';

import { dashboardSetup } from './dashboard.setup';
import type { TeacherAdapter } from './teacher.adapter';

/**
 * The class dashboard: the classes the caller teaches, then one class's rows. `noClasses` when they
 * teach none; `failed` offers a retry. Sorting and filtering change only what the view reads.
 */
export const dashboardMachine = dashboardSetup.createMachine({
  id: 'dashboard',
  context: ({ input }) => ({
    classes: [],
    classId: input.classId ?? null,
    data: null,
    sort: { key: 'name', direction: 'ascending' },
    filter: 'all',
  }),
  initial: 'loadingClasses',
  on: {
    'table.sort': { actions: { type: 'sortBy', params: ({ event }) => event.key } },
    'table.filter': { actions: assign({ filter: ({ event }) => event.filter }) },
  },
  states: {
    loadingClasses: {
      tags: ['loading'],
      invoke: {
        src: 'classes',
        onDone: [
          {
            guard: { type: 'hasNoClasses', params: ({ event }) => event.output },
            target: 'noClasses',
          },
          {
            target: 'loadingClass',
            actions: { type: 'keepClasses', params: ({ event }) => event.output },
          },
        ],
        onError: 'failed',
      },
    },
    noClasses: {},
    loadingClass: {
      tags: ['loading'],
      invoke: {
        src: 'dashboard',
        input: ({ context }) => context.classId!,
        onDone: { target: 'ready', actions: assign({ data: ({ event }) => event.output }) },
        onError: 'failed',
      },
    },
    ready: {
      on: {
        'class.pick': {
          target: 'loadingClass',
          actions: assign({ classId: ({ event }) => event.classId, data: null }),
        },
      },
    },
    failed: {
      on: {
        'dashboard.retry': [
          { guard: ({ context }) => context.classes.length > 0, target: 'loadingClass' },
          { target: 'loadingClasses' },
        ],
      },
    },
  },
});

/** The dashboard machine over `adapter`'s calls. */
export function dashboardLogic(adapter: TeacherAdapter) {
  return dashboardMachine.provide({
    actors: {
      classes: fromPromise(({ signal }) => adapter.classes({ signal })),
      dashboard: fromPromise(({ input, signal }) => adapter.dashboard(input, { signal })),
    },
  });
}
