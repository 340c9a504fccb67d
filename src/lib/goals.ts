import { GOAL_TYPE_UNITS } from './labels';
import { GOALS, type GoalType, type Subject } from './limits';
import { VALIDATION_MESSAGES as M } from './messages';
import { clampPercent } from './progress';

/** Where a target is being entered: the create wizard (1–999) or the edit dialog (at least 1). */
export type TargetMode = 'create' | 'edit';

/**
 * Why a goal target is refused, or null. Targets count problems, minutes or topics, so both modes
 * want whole numbers; only create has an upper bound (spec: "1 to 999 in create; edit minimum 1").
 */
export function goalTargetError(value: number, mode: TargetMode = 'create'): string | null {
  if (mode === 'edit') {
    return Number.isInteger(value) && value >= GOALS.minTarget ? null : M.goalTargetMin;
  }
  return Number.isInteger(value) && value >= GOALS.minTarget && value <= GOALS.maxTarget
    ? null
    : M.goalTargetRange;
}

/** Whether `value` is an acceptable target for `mode`. */
export function isValidTarget(value: number, mode: TargetMode = 'create'): boolean {
  return goalTargetError(value, mode) === null;
}

/** A goal's progress in percent of its target, capped at 100 (a zero target counts as done). */
export function goalPercent(totalProgress: number, targetValue: number): number {
  if (!(targetValue > 0)) return totalProgress > 0 ? GOALS.maxProgressPercent : 0;
  return clampPercent((totalProgress / targetValue) * 100);
}

/** Goals at more than 50 % progress are locked; exactly 50 % may still be edited. */
export function canEditGoal(progressPercent: number): boolean {
  return clampPercent(progressPercent) <= GOALS.editLockPercent;
}

/** 'Goals with more than 50% progress cannot be edited.' when locked, else null. */
export function goalEditError(progressPercent: number): string | null {
  return canEditGoal(progressPercent) ? null : M.goalEditLocked;
}

/**
 * Whether creating a goal in `newSubject` would exceed 3 distinct subjects. Another goal in a
 * subject already in use adds no subject, so it is never blocked by this rule.
 */
export function subjectLimitReached(
  existingGoals: readonly { subject: string }[],
  newSubject: string,
): boolean {
  const subjects = new Set(existingGoals.map((goal) => goal.subject));
  return !subjects.has(newSubject) && subjects.size >= GOALS.maxSubjects;
}

/** 'You can only create a maximum of 3 courses at a time.' when the limit is reached, else null. */
export function subjectLimitError(
  existingGoals: readonly { subject: string }[],
  newSubject: string,
): string | null {
  return subjectLimitReached(existingGoals, newSubject) ? M.goalSubjectLimit : null;
}

/** Study time in hours with 2 decimals: 90 minutes → '1.50'. Negative or unknown shows '0.00'. */
export function formatStudyHours(minutes: number): string {
  const safe = Number.isFinite(minutes) && minutes > 0 ? minutes : 0;
  return (safe / 60).toFixed(2);
}

/** The target the wizard pre-fills on entering step 3: 10 problems, 30 minutes, 3 topics. */
export function defaultTarget(goalType: GoalType): number {
  return GOALS.defaultTarget[goalType];
}

/**
 * The milestones (25, 50, 75, 100) crossed when progress moves from `previous` to `next` percent,
 * in ascending order; each is reached once, on the update that first meets it.
 */
export function milestonesReached(previous: number, next: number): number[] {
  const from = clampPercent(previous);
  const to = clampPercent(next);
  return GOALS.milestones.filter((milestone) => from < milestone && to >= milestone);
}

/** The Avg Progress stat: the mean of the goals' percentages, rounded; 0 without goals. */
export function averageProgress(goals: readonly { total_progress: number }[]): number {
  if (goals.length === 0) return 0;
  const sum = goals.reduce((total, goal) => total + clampPercent(goal.total_progress), 0);
  return Math.round(sum / goals.length);
}

/** 'Recommended: 10–25 problems per week' beside the target field (spec section 9). */
export function recommendedRange(goalType: GoalType): string {
  const { min, max } = GOALS.recommended[goalType];
  return `Recommended: ${min}–${max} ${GOAL_TYPE_UNITS[goalType]} per week`;
}

/** The subjects with the student's interests first, each once, in the spec's order otherwise. */
export function subjectsByInterest(interests: readonly string[] = []): Subject[] {
  const all: readonly Subject[] = GOALS.subjects;
  const first = all.filter((subject) => interests.includes(subject));
  return [...first, ...all.filter((subject) => !first.includes(subject))];
}

/** A progress entry: a whole value from 1 to 999, minutes 0–1440, a topic of at most 200 characters. */
export function progressEntryError(entry: {
  value: number;
  minutes?: number | undefined;
  topic?: string | undefined;
}): string | null {
  const { value, minutes, topic } = entry;
  if (!Number.isInteger(value) || value < 1 || value > GOALS.maxTarget) return M.goalProgressRange;
  if (
    minutes !== undefined &&
    (!Number.isInteger(minutes) || minutes < 0 || minutes > GOALS.maxMinutesPerEntry)
  )
    return M.goalMinutesRange;
  if (topic !== undefined && topic.trim().length > GOALS.topicMaxLength) return M.goalTopicTooLong;
  return null;
}
