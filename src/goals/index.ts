// The weekly goals (`ayah-coach/goals`): the board widget, its machines, and the adapter it talks to.
export { GoalsBoard, type GoalsBoardProps } from './GoalsBoard';

// The machines, for hosts that drive the goals themselves.
export {
  boardMachine,
  goalsLogic,
  type BoardContext,
  type BoardEmitted,
  type BoardEvent,
  type GoalHistory,
} from './board.machine';
export {
  wizardLogic,
  wizardMachine,
  wizardTargetError,
  type WizardContext,
  type WizardEmitted,
  type WizardEvent,
} from './wizard.machine';
export { suggestionsFor, type GoalSuggestion } from './suggestions';

export type * from './goals.adapter';
