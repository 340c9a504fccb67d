// The weekly goals (`ayah-coach/goals`): the board widget, its machines, and the adapter it talks to.
export { GoalsBoard, type GoalsBoardProps } from './GoalsBoard';

// The machines, for hosts that drive the goals themselves.
export {
  type BoardContext,
  type BoardEmitted,
  type BoardEvent,
  boardMachine,
  type GoalHistory,
  goalsLogic,
} from './board.machine';
export type * from './goals.adapter';
export { type GoalSuggestion, suggestionsFor } from './suggestions';
export { wizardLogic, wizardMachine } from './wizard.machine';
export {
  type WizardContext,
  type WizardEmitted,
  type WizardEvent,
  wizardTargetError,
} from './wizard.setup';
