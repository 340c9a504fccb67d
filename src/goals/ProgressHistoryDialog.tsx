import { useSelector } from '@xstate/react';

import { formatStudyHours } from '../lib/goals';
import { GOAL_TYPE_UNITS } from '../lib/labels';
import { GOALS } from '../lib/limits';
import { Button } from '../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../ui/dialog';
import { LoadingStatus, Skeleton } from '../ui/skeleton';
import { historyStatus, isShowingHistory } from './board.selectors';
import { goalName, shortDate } from './format';
import { useBoardActor } from './goals-context';

/** A goal's progress by day, 4 days a page, newest first. */
export function ProgressHistoryDialog() {
  const board = useBoardActor('ProgressHistoryDialog');
  const open = useSelector(board, isShowingHistory);
  const view = useSelector(board, historyStatus);
  const goal = useSelector(board, (s) => s.context.target);
  const history = useSelector(board, (s) => s.context.history);
  const pages = Math.max(1, Math.ceil(history.total / GOALS.progressPageSize));
  const unit = goal ? GOAL_TYPE_UNITS[goal.goal_type] : '';

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) board.send({ type: 'history.close' });
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Progress history</DialogTitle>
          <DialogDescription>{goal ? goalName(goal) : ''}</DialogDescription>
        </DialogHeader>
        {view === 'loading' && (
          <LoadingStatus label="Loading progress…">
            <Skeleton className="ay:h-10 ay:w-full" />
            <Skeleton className="ay:h-10 ay:w-full" />
          </LoadingStatus>
        )}
        {view === 'failed' && (
          <div className="ay:flex ay:flex-col ay:items-start ay:gap-2">
            <p className="ay:text-sm">The progress history could not be loaded.</p>
            <Button
              size="sm"
              variant="outline"
              onClick={() => board.send({ type: 'history.retry' })}
            >
              Try again
            </Button>
          </div>
        )}
        {view === 'loaded' && history.entries.length === 0 && (
          <p className="ay:text-sm ay:text-muted-foreground">No progress logged yet.</p>
        )}
        {view === 'loaded' && history.entries.length > 0 && (
          <ul aria-label="Progress by day" className="ay:flex ay:flex-col ay:gap-2">
            {history.entries.map((entry) => (
              <li
                key={entry.date}
                className="ay:flex ay:items-center ay:justify-between ay:gap-3 ay:rounded-md ay:bg-muted ay:px-3 ay:py-2 ay:text-sm"
              >
                <time dateTime={entry.date} className="ay:font-medium">
                  {shortDate(entry.date)}
                </time>
                <span>
                  {entry.total_value} {unit} · {formatStudyHours(entry.total_time)} hours
                </span>
              </li>
            ))}
          </ul>
        )}
        {history.total > GOALS.progressPageSize && (
          <nav
            aria-label="Progress pages"
            className="ay:flex ay:items-center ay:justify-between ay:gap-2"
          >
            <Button
              size="sm"
              variant="outline"
              disabled={history.page <= 1 || view === 'loading'}
              onClick={() => board.send({ type: 'history.page', page: history.page - 1 })}
            >
              Previous
            </Button>
            <span className="ay:text-sm" aria-live="polite">
              Page {history.page} of {pages}
            </span>
            <Button
              size="sm"
              variant="outline"
              disabled={history.page >= pages || view === 'loading'}
              onClick={() => board.send({ type: 'history.page', page: history.page + 1 })}
            >
              Next
            </Button>
          </nav>
        )}
      </DialogContent>
    </Dialog>
  );
}
