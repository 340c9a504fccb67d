import { DeleteGoalDialog, EditGoalDialog } from './EditGoalDialog';
import type { Subject } from './goals.adapter';
import { GoalWizardDialog } from './GoalWizardDialog';
import { LogProgressDialog } from './LogProgressDialog';
import { ProgressHistoryDialog } from './ProgressHistoryDialog';

/**
 * The board's five dialogs, in a chunk of their own (`GoalsBoard` imports it lazily): they and the
 * dialog primitives under them are no part of the widget's first load in a portal's page.
 */
export default function GoalDialogs({ interests }: { interests: Subject[] }) {
  return (
    <>
      <GoalWizardDialog interests={interests} />
      <EditGoalDialog />
      <DeleteGoalDialog />
      <LogProgressDialog />
      <ProgressHistoryDialog />
    </>
  );
}
