// The weekly goals (`ayah-coach/goals`): the board widget, its machines, and the adapter it talks to.
export { GoalsBoard, type GoalsBoardProps } from './GoalsBoard';

// The machines, for hosts that drive the goals themselves.
export { boardMachine, goalsLogic } from './board.machine';
export type * from './goals.adapter';
export type * from './goals.types';
export { suggestionsFor } from './suggestions';
export { wizardLogic, wizardMachine } from './wizard.machine';
export { wizardTargetError } from './wizard.setup';
