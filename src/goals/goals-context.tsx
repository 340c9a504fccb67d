import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { boardMachine } from './board.machine';
import type { wizardMachine } from './wizard.machine';

export type BoardActorRef = ActorRefFrom<typeof boardMachine>;
export type WizardActorRef = ActorRefFrom<typeof wizardMachine>;

/** The board actor of the enclosing `<GoalsBoard>`; its parts read and drive it. */
export const BoardActorContext = createContext<BoardActorRef | null>(null);

/** The create wizard's actor of the enclosing `<GoalsBoard>`. */
export const WizardActorContext = createContext<WizardActorRef | null>(null);

/** The enclosing board's actor. A part rendered outside `<GoalsBoard>` throws, naming itself. */
export function useBoardActor(part: string): BoardActorRef {
  const actor = useContext(BoardActorContext);
  if (!actor) throw new Error(`\`${part}\` must be used within \`<GoalsBoard>\``);
  return actor;
}

/** The enclosing board's wizard actor. A part rendered outside `<GoalsBoard>` throws. */
export function useWizardActor(part: string): WizardActorRef {
  const actor = useContext(WizardActorContext);
  if (!actor) throw new Error(`\`${part}\` must be used within \`<GoalsBoard>\``);
  return actor;
}
