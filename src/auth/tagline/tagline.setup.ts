import { assign, setup } from 'xstate';

import { AUTH } from '../../lib/limits';
import type { TaglineInput } from '../auth.types';

/** Types, actors (stubs until they are provided), guards and actions of `taglineMachine`. */
export const taglineSetup = setup({
  types: {
    context: {} as { text: string; shown: number },
    input: {} as TaglineInput,
  },
  delays: { keystroke: AUTH.taglineTypingMs },
  guards: {
    lastKey: ({ context }) => context.shown + 1 >= [...context.text].length,
  },
  actions: {
    type: assign({ shown: ({ context }) => context.shown + 1 }),
  },
});
