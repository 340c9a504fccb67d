import { assign, setup } from 'xstate';

import { AUTH } from '../../lib/limits';

export type TaglineInput = {
  text: string;
  /** The reader prefers reduced motion: the whole line shows at once. */
  reducedMotion?: boolean | undefined;
};

/** The sign-in screen's tagline typed out one character every 80 ms (spec section 9). */
export const taglineMachine = setup({
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
}).createMachine({
  id: 'tagline',
  context: ({ input }) => ({
    text: input.text,
    shown: input.reducedMotion ? [...input.text].length : 0,
  }),
  initial: 'start',
  states: {
    start: {
      always: [
        { guard: ({ context }) => context.shown >= [...context.text].length, target: 'done' },
        { target: 'typing' },
      ],
    },
    typing: {
      after: {
        keystroke: [
          { guard: 'lastKey', target: 'done', actions: 'type' },
          { target: 'typing', reenter: true, actions: 'type' },
        ],
      },
    },
    done: { type: 'final' },
  },
});

/** The part of the tagline typed so far (whole characters, so an emoji never shows half). */
export function typedText(context: { text: string; shown: number }): string {
  return [...context.text].slice(0, context.shown).join('');
}
