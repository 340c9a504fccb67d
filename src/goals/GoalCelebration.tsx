import { useSelector } from '@xstate/react';
import { useEffect } from 'react';

import { cn } from '../lib/cn';
import { celebrationMessage } from '../lib/messages';
import { clampPercent } from '../lib/progress';
import { Button } from '../ui/button';
import { XIcon } from '../ui/icons';
import { shownCelebration } from './board.selectors';
import { fireConfetti } from './confetti';
import { useBoardActor } from './goals-context';
import { TrophyIcon } from './goals-icons';
import { useReducedMotion } from './use-reduced-motion';

/**
 * A milestone (25, 50, 75, 100 %) reached: a banner, confetti unless motion is reduced (then a calm
 * banner alone), and the words in a polite live region for screen readers. One log celebrates once,
 * with the highest milestone it crossed; the board's machine drops the ones it passed.
 */
export function GoalCelebration({ reducedMotion }: { reducedMotion?: boolean | undefined }) {
  const board = useBoardActor('GoalCelebration');
  const reduced = useReducedMotion(reducedMotion);
  const celebration = useSelector(board, shownCelebration);
  const goal = useSelector(board, (s) =>
    s.context.goals.find((g) => g._id === celebration?.goal_id),
  );
  const key = celebration ? `${celebration.goal_id}:${celebration.milestone}` : null;
  // The words and the number agree with the goal's card: its percent, rounded as the card rounds it.
  const percent = Math.round(
    Math.max(clampPercent(goal?.total_progress ?? 0), celebration?.milestone ?? 0),
  );
  const message = celebration
    ? celebrationMessage(celebration.milestone, goal?.subject, percent)
    : '';

  useEffect(() => {
    if (!key || reduced || !celebration) return;
    fireConfetti(celebration.milestone).catch(() => {
      // No confetti (no canvas, or the chunk failed to load): the banner still celebrates.
    });
    // Fired once per celebration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, reduced]);

  return (
    <>
      <div role="status" aria-live="polite" className="ay:sr-only">
        {message}
      </div>
      {celebration && (
        <div
          key={key}
          data-slot="goal-celebration"
          data-milestone={celebration.milestone}
          data-motion={reduced ? 'reduced' : 'confetti'}
          className={cn(
            'ay:flex ay:items-center ay:gap-3 ay:rounded-lg ay:border ay:border-success ay:bg-surface ay:p-3',
            !reduced && 'ay:animate-celebrate',
          )}
        >
          <TrophyIcon className="ay:size-6 ay:shrink-0 ay:text-success" />
          <p className="ay:flex-1 ay:text-sm ay:font-medium">
            <span aria-hidden="true">{percent}% · </span>
            {message}
          </p>
          <Button
            size="icon"
            variant="ghost"
            className="ay:size-8"
            aria-label="Dismiss celebration"
            onClick={() => board.send({ type: 'celebration.dismiss' })}
          >
            <XIcon />
          </Button>
        </div>
      )}
    </>
  );
}
