import { boardSetup } from './board.setup';

/**
 * The board's dialogs, one open at a time: the create wizard, edit (or the lock over 50 %), delete
 * after confirming, the progress history (paged) and logging progress.
 */
export const dialogState = boardSetup.createStateConfig({
  initial: 'closed',
  states: {
    closed: {
      entry: 'clearTarget',
      on: {
        'wizard.open': 'wizard',
        'goal.edit': [
          { guard: 'isEditable', target: 'editing', actions: 'setTarget' },
          // Over 50 %: the dialog says 'Goals with more than 50% progress cannot be edited.'
          { guard: 'isKnownGoal', target: 'locked', actions: 'setTarget' },
        ],
        'goal.delete': { guard: 'isKnownGoal', target: 'deleting', actions: 'setTarget' },
        'goal.history': { guard: 'isKnownGoal', target: 'history', actions: 'setTarget' },
        'goal.log': { guard: 'isKnownGoal', target: 'logging', actions: 'setTarget' },
      },
    },
    /** The create wizard (its own machine) is open. */
    wizard: {
      on: {
        'wizard.close': 'closed',
        'goal.created': { target: 'closed', actions: ['addGoal', 'changed'] },
      },
    },
    locked: { on: { 'edit.cancel': 'closed' } },
    editing: {
      initial: 'form',
      states: {
        form: {
          on: {
            'edit.save': { guard: 'isValidEdit', target: 'saving' },
            'edit.cancel': '#board.dialog.closed',
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            src: 'update',
            input: ({ context, event }) => ({
              id: context.target?._id ?? '',
              target: event.type === 'edit.save' ? event.target : 0,
            }),
            onDone: {
              target: '#board.dialog.closed',
              actions: [
                { type: 'replaceGoal', params: ({ event }) => event.output.goal },
                'notifyUpdated',
                'changed',
              ],
            },
            onError: {
              target: 'form',
              actions: {
                type: 'notifyUpdateFailed',
                params: ({ event }) => ({ error: event.error }),
              },
            },
          },
        },
      },
    },
    deleting: {
      initial: 'confirming',
      states: {
        confirming: {
          on: { 'delete.confirm': 'removing', 'delete.cancel': '#board.dialog.closed' },
        },
        removing: {
          tags: ['busy'],
          invoke: {
            src: 'remove',
            input: ({ context }) => ({ id: context.target?._id ?? '' }),
            onDone: {
              target: '#board.dialog.closed',
              actions: ['removeTarget', 'notifyDeleted', 'changed'],
            },
            onError: { target: '#board.dialog.closed', actions: 'notifyDeleteFailed' },
          },
        },
      },
    },
    history: {
      initial: 'loading',
      on: { 'history.close': 'closed' },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            src: 'progressHistory',
            input: ({ context }) => ({
              id: context.target?._id ?? '',
              page: context.history.page,
            }),
            onDone: {
              target: 'loaded',
              actions: { type: 'showHistory', params: ({ event }) => event.output },
            },
            onError: 'failed',
          },
        },
        loaded: {
          on: {
            'history.page': {
              guard: 'isOtherPage',
              target: 'loading',
              actions: 'setHistoryPage',
            },
          },
        },
        failed: { on: { 'history.retry': 'loading' } },
      },
    },
    logging: {
      initial: 'form',
      states: {
        form: {
          on: {
            'progress.save': { guard: 'isValidProgress', target: 'saving' },
            'progress.cancel': '#board.dialog.closed',
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            src: 'logProgress',
            input: ({ context, event }) => ({
              id: context.target?._id ?? '',
              body:
                event.type === 'progress.save'
                  ? {
                      value: event.value,
                      ...(event.topic?.trim() && { topic: event.topic.trim() }),
                      ...(event.minutes !== undefined && { minutes: event.minutes }),
                    }
                  : { value: 0 },
            }),
            onDone: {
              target: '#board.dialog.closed',
              actions: [
                { type: 'replaceGoal', params: ({ event }) => event.output.goal },
                'notifyLogged',
                'changed',
              ],
            },
            onError: {
              target: 'form',
              actions: {
                type: 'notifyLogFailed',
                params: ({ event }) => ({ error: event.error }),
              },
            },
          },
        },
      },
    },
  },
});
