import { assign, setup } from 'xstate';

import { stubActor } from '../lib/stub-actor';
import type { ClassDashboardData, ClassList } from './teacher.adapter';
import type { DashboardContext, DashboardEvent, SortKey } from './teacher.types';

const HOW = 'create the machine with dashboardLogic(adapter)';

/** Types, actors (stubs until `dashboardLogic(adapter)`) and actions of the class dashboard. */
export const dashboardSetup = setup({
  types: {
    context: {} as DashboardContext,
    events: {} as DashboardEvent,
    input: {} as { classId?: string | null | undefined },
    tags: {} as 'loading',
  },
  actors: {
    classes: stubActor<ClassList, void>('classes', HOW),
    dashboard: stubActor<ClassDashboardData, string>('dashboard', HOW),
  },
  guards: {
    hasNoClasses: (_, output: ClassList) => output.classes.length === 0,
  },
  actions: {
    /** The class asked for if the caller teaches it, else the first. */
    keepClasses: assign(({ context }, output: ClassList) => ({
      classes: output.classes,
      classId: output.classes.some((c) => c.id === context.classId)
        ? context.classId
        : (output.classes[0]?.id ?? null),
    })),
    sortBy: assign(({ context }, key: SortKey) => ({
      sort: {
        key,
        direction:
          context.sort.key === key && context.sort.direction === 'ascending'
            ? ('descending' as const)
            : ('ascending' as const),
      },
    })),
  },
});
