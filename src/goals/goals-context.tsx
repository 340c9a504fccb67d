import type { ActorRefFrom } from 'xstate';

import { createContext } from '../ui/create-context';
import type { boardMachine } from './board.machine';
import type { wizardMachine } from './wizard.machine';

export type BoardActorRef = ActorRefFrom<typeof boardMachine>;
export type WizardActorRef = ActorRefFrom<typeof wizardMachine>;

/** The board actor of the enclosing `<GoalsBoard>`; a part rendered outside it throws, naming itself. */
export const [BoardActorProvider, useBoardActor] = createContext<BoardActorRef>('GoalsBoard');

/** The create wizard's actor of the enclosing `<GoalsBoard>`. */
export const [WizardActorProvider, useWizardActor] = createContext<WizardActorRef>('GoalsBoard');
