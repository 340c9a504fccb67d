import { taglineSetup } from './tagline.setup';

/** The sign-in screen's tagline typed out one character every 80 ms (spec section 9). */
export const taglineMachine = taglineSetup.createMachine({
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
