import { useActorRef, useSelector } from '@xstate/react';
import { lazy, useEffect, useId, useState } from 'react';

import { cn } from '../lib/cn';
import { AUTH } from '../lib/limits';
import { GOAL_MESSAGES, GUEST_MESSAGES } from '../lib/messages';
import { Button } from '../ui/button';
import { MountOnOpen } from '../ui/mount-on-open';
import { pageTitleClass } from '../ui/page-title';
import { AyahRoot, type Theme } from '../ui/root';
import { LoadingStatus, Skeleton } from '../ui/skeleton';
import { showNotice, toast } from '../ui/toast';
import { whenIdle } from '../ui/when-idle';
import { goalsLogic } from './board.machine';
import { listStatus, noDialogOpen } from './board.selectors';
import { GoalCard } from './GoalCard';
import { GoalCelebration } from './GoalCelebration';
import type { GoalsAdapter, Subject } from './goals.adapter';
import {
  BoardActorProvider,
  type BoardActorRef,
  useBoardActor,
  useWizardActor,
  WizardActorProvider,
  type WizardActorRef,
} from './goals-context';
import { PlusIcon, TargetIcon } from './goals-icons';
import { GoalStats, RecentActivity } from './GoalsSummary';
import { wizardLogic } from './wizard.machine';
import { SuggestionCards } from './WizardSteps';

const loadDialogs = () => import('./GoalDialogs');
const GoalDialogs = lazy(loadDialogs);

export interface GoalsBoardProps {
  /** The backend: `createHttpApi(…).goals`, or a fake in stories and tests. Read once, on mount. */
  adapter: GoalsAdapter;
  /**
   * The signed-in user. `null` or the guest (`guest-user`) is the signed-out widget, which asks to
   * sign in; leave it out when the adapter carries the session.
   * @default undefined
   */
  user?: { id: string } | null;
  /** Shows a Sign in button to the signed-out widget. @default undefined */
  onSignIn?: () => void;
  /** Subjects the student picked in onboarding: their suggestion cards come first. @default [] */
  interests?: Subject[];
  /**
   * Celebrate without confetti, with a calm message instead.
   * @default the reader's `prefers-reduced-motion`
   */
  reducedMotion?: boolean;
  /**
   * How long (ms) a celebration stays before the next one takes its place; `null` keeps each until
   * the student dismisses it (a story, a screenshot).
   * @default 6000
   */
  celebrationMs?: number | null;
  /** The board's heading. @default 'Weekly goals' */
  title?: string;
  /** @default the enclosing Ayah root's theme, else 'light' */
  theme?: Theme;
  className?: string;
}

/**
 * Weekly learning goals: the four stats, a card per goal with its progress and actions, Recent
 * Activity, the create wizard and the milestone celebrations. Fits a 320 px side column and a page.
 */
export function GoalsBoard({
  adapter,
  user,
  onSignIn,
  theme,
  className,
  ...props
}: GoalsBoardProps) {
  const signedOut = user === null || user?.id === AUTH.guestUserId;
  return (
    <AyahRoot
      theme={theme}
      data-slot="goals-board"
      className={cn('ay:@container ay:flex ay:min-w-0 ay:flex-col ay:gap-4', className)}
    >
      {signedOut ? (
        <GuestNotice onSignIn={onSignIn} />
      ) : (
        <Board key={user?.id ?? ''} adapter={adapter} {...props} />
      )}
    </AyahRoot>
  );
}

type BoardProps = Pick<
  GoalsBoardProps,
  'adapter' | 'interests' | 'reducedMotion' | 'title' | 'celebrationMs'
>;

function Board({
  adapter,
  interests = [],
  reducedMotion,
  title = 'Weekly goals',
  celebrationMs,
}: BoardProps) {
  const [logic] = useState(() => ({
    board: goalsLogic(adapter, { celebrationMs }),
    wizard: wizardLogic(adapter),
  }));
  const board = useActorRef(logic.board);
  const wizard = useActorRef(logic.wizard);
  const headingId = useId();
  useGoalsEffects(board, wizard);

  return (
    <BoardActorProvider value={board}>
      <WizardActorProvider value={wizard}>
        <section aria-labelledby={headingId} className="ay:flex ay:flex-col ay:gap-4">
          <header className="ay:flex ay:flex-wrap ay:items-center ay:justify-between ay:gap-2">
            <h2 id={headingId} className={pageTitleClass}>
              {title}
            </h2>
            <Button size="sm" onClick={() => board.send({ type: 'wizard.open' })}>
              <PlusIcon />
              New goal
            </Button>
          </header>
          <GoalCelebration reducedMotion={reducedMotion} />
          <GoalStats />
          <GoalList interests={interests} />
          <RecentActivity />
        </section>
        <Dialogs interests={interests} />
      </WizardActorProvider>
    </BoardActorProvider>
  );
}

/**
 * The dialogs load once the board has drawn (when the browser is idle), so the first open is
 * instant, or at once if one opens before that; once loaded they stay mounted, each open or closed
 * as the board says.
 */
function Dialogs({ interests }: { interests: Subject[] }) {
  const board = useBoardActor('GoalDialogs');
  const opened = useSelector(board, (s) => !noDialogOpen(s));
  const [loaded, setLoaded] = useState(false);
  useEffect(() => whenIdle(() => void loadDialogs().then(() => setLoaded(true))), []);
  return (
    <MountOnOpen open={opened || loaded}>
      <GoalDialogs interests={interests} />
    </MountOnOpen>
  );
}

function GoalList({ interests }: { interests: Subject[] }) {
  const board = useBoardActor('GoalList');
  const view = useSelector(board, (s) => {
    const status = listStatus(s);
    if (status !== 'ready') return status;
    return s.context.goals.length === 0 ? 'empty' : 'list';
  });
  const goals = useSelector(board, (s) => s.context.goals);

  if (view === 'loading') {
    return (
      <LoadingStatus label="Loading goals…" className="ay:gap-3">
        <Skeleton className="ay:h-36 ay:w-full ay:rounded-lg" />
        <Skeleton className="ay:h-36 ay:w-full ay:rounded-lg" />
      </LoadingStatus>
    );
  }
  if (view === 'failed') {
    return (
      <div className="ay:flex ay:flex-col ay:items-center ay:gap-3 ay:rounded-lg ay:border ay:border-dashed ay:border-border ay:p-6 ay:text-center">
        <p className="ay:text-sm">{GOAL_MESSAGES.fetchFailedShown}</p>
        <Button variant="outline" size="sm" onClick={() => board.send({ type: 'goals.retry' })}>
          Try again
        </Button>
      </div>
    );
  }
  if (view === 'empty') return <EmptyBoard interests={interests} />;
  return (
    <ul aria-label="Goals of the week" className="ay:grid ay:gap-3 ay:@2xl:grid-cols-2">
      {goals.map((goal) => (
        <li key={goal._id}>
          <GoalCard goal={goal} />
        </li>
      ))}
    </ul>
  );
}

/** No goal yet this week: an invitation, with the suggestion cards opening the wizard at step 2. */
function EmptyBoard({ interests }: { interests: Subject[] }) {
  const board = useBoardActor('EmptyBoard');
  const wizard = useWizardActor('EmptyBoard');
  return (
    <div className="ay:flex ay:flex-col ay:gap-3 ay:rounded-lg ay:border ay:border-dashed ay:border-border ay:p-4">
      <div className="ay:flex ay:items-center ay:gap-2">
        <TargetIcon className="ay:size-5 ay:text-primary" />
        <h3 className="ay:text-base ay:font-semibold">Set your first weekly goal</h3>
      </div>
      <p className="ay:text-sm ay:text-muted-foreground">
        Pick a subject to start with. You can change your target later.
      </p>
      <SuggestionCards
        interests={interests}
        onPick={(subject) => {
          wizard.send({ type: 'wizard.suggest', subject });
          board.send({ type: 'wizard.open' });
        }}
      />
    </div>
  );
}

function GuestNotice({ onSignIn }: { onSignIn: (() => void) | undefined }) {
  return (
    <div className="ay:flex ay:flex-col ay:items-center ay:justify-center ay:gap-4 ay:p-6 ay:text-center">
      <TargetIcon className="ay:size-8 ay:text-primary" />
      <p className="ay:text-base">{GUEST_MESSAGES.signInRequired}</p>
      {onSignIn && <Button onClick={onSignIn}>Sign in</Button>}
    </div>
  );
}

/** Toasts for the board's notices; the wizard's outcome goes to the board. */
function useGoalsEffects(board: BoardActorRef, wizard: WizardActorRef) {
  useEffect(() => {
    const subscriptions = [
      board.on('notify', showNotice),
      wizard.on('goal.created', ({ goal, message }) => {
        toast.success(message);
        board.send({ type: 'goal.created', goal });
      }),
      wizard.on('wizard.cancelled', () => board.send({ type: 'wizard.close' })),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [board, wizard]);
}
