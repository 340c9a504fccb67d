import type { Meta, StoryObj } from '@storybook/react-vite';
import { toast } from 'ayah-coach';
import { GoalsBoard, type GoalsBoardProps, type GoalType } from 'ayah-coach/goals';
import { useState } from 'react';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';

import {
  apiError,
  edgeGoals,
  fakeGoalsAdapter,
  goal,
  historyDays,
  pending,
} from '../../fakes/goals';

/** The stories' default backend; each story's mount gets a fresh copy, so none sees another's goals. */
const defaultAdapter = fakeGoalsAdapter();

function Board(args: GoalsBoardProps) {
  const [adapter] = useState(() =>
    args.adapter === defaultAdapter ? fakeGoalsAdapter() : args.adapter,
  );
  return (
    <div style={{ maxWidth: 960 }}>
      <GoalsBoard {...args} adapter={adapter} />
    </div>
  );
}

const meta = {
  title: 'Goals/GoalsBoard',
  component: GoalsBoard,
  args: { adapter: defaultAdapter, reducedMotion: true },
  render: (args) => <Board {...args} />,
  beforeEach: () => () => toast.remove(),
} satisfies Meta<typeof GoalsBoard>;

export default meta;
type Story = StoryObj<typeof meta>;

const goalsList = (canvasElement: HTMLElement) =>
  within(canvasElement).findByRole('list', { name: 'Goals of the week' });

async function openWizard(canvasElement: HTMLElement) {
  await goalsList(canvasElement);
  await userEvent.click(within(canvasElement).getByRole('button', { name: 'New goal' }));
  return screen.findByRole('dialog', { name: 'Create a new goal' });
}

/** Opens the wizard and walks to step 3 with `goalType` (the custom subject History). */
async function toTarget(canvasElement: HTMLElement, goalType: GoalType) {
  const wizard = await openWizard(canvasElement);
  await userEvent.click(within(wizard).getByRole('button', { name: 'Create a custom goal' }));
  await userEvent.click(within(wizard).getByRole('radio', { name: 'Math' }));
  await userEvent.click(within(wizard).getByRole('button', { name: 'Next' }));
  const label = {
    problems_solved: /Problems Solved/,
    study_time: /Study Time/,
    topics_learned: /Topics Learned/,
  }[goalType];
  await userEvent.click(within(wizard).getByRole('button', { name: label }));
  return wizard;
}

/** The week's goals are loading. */
export const Loading: Story = {
  args: { adapter: fakeGoalsAdapter({ listCurrent: (o) => pending(o) }) },
  play: async ({ canvasElement }) => {
    // The celebration's live region is a status too: find the loading one by its words.
    await expect(await within(canvasElement).findByText('Loading goals…')).toBeInTheDocument();
  },
};

/** No goal yet: an invitation with the suggestion cards (interests first). */
export const Empty: Story = {
  args: {
    adapter: fakeGoalsAdapter({}, { goals: [], activities: [], streak: 0 }),
    interests: ['science'],
  },
  play: async ({ canvasElement }) => {
    const cards = await within(canvasElement).findByRole('list', { name: 'Suggested goals' });
    await expect(within(cards).getAllByRole('button')[0]).toHaveTextContent('Explore science');
  },
};

/** The list failed: 'Failed to fetch goals' is logged, the board offers to try again. */
export const Failed: Story = {
  args: { adapter: fakeGoalsAdapter({ listCurrent: () => Promise.reject(apiError()) }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Your goals could not be loaded.')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Try again' })).toBeEnabled();
  },
};

/** Goals at 0, 24, 25, 74, 75 and 100 %: red under 25, yellow under 75, else green. */
export const Loaded: Story = {
  args: { adapter: fakeGoalsAdapter({}, { goals: edgeGoals }) },
  play: async ({ canvasElement }) => {
    const bars = within(await goalsList(canvasElement)).getAllByRole('progressbar');
    await expect(bars.map((b) => b.getAttribute('data-tone'))).toEqual([
      'low',
      'low',
      'mid',
      'mid',
      'high',
      'high',
    ]);
  },
};

/** Wizard step 1: suggestion cards and the custom-goal toggle. */
export const WizardSubject: Story = {
  play: async ({ canvasElement }) => {
    const wizard = await openWizard(canvasElement);
    await expect(wizard).toHaveAccessibleDescription('Step 1 of 4: Subject');
    await expect(within(wizard).getByRole('list', { name: 'Suggested goals' })).toBeInTheDocument();
  },
};

/** The custom-goal toggle shows the full subject list. */
export const WizardCustomSubject: Story = {
  play: async ({ canvasElement }) => {
    const wizard = await openWizard(canvasElement);
    await userEvent.click(within(wizard).getByRole('button', { name: 'Create a custom goal' }));
    await expect(within(wizard).getAllByRole('radio')).toHaveLength(4);
  },
};

/** Wizard step 2: a suggestion card picked Math. */
export const WizardGoalType: Story = {
  play: async ({ canvasElement }) => {
    const wizard = await openWizard(canvasElement);
    await userEvent.click(within(wizard).getByRole('button', { name: /Practice math problems/ }));
    await expect(wizard).toHaveAccessibleDescription('Step 2 of 4: Goal type');
  },
};

const targetStory = (goalType: GoalType, unit: string, start: string, range: string): Story => ({
  play: async ({ canvasElement }) => {
    const wizard = await toTarget(canvasElement, goalType);
    const field = within(wizard).getByRole('spinbutton', { name: `Weekly target (${unit})` });
    await expect(field).toHaveValue(Number(start));
    await expect(field).toHaveAccessibleDescription(range);
  },
});

/** Step 3, problems: 10 by default, 10–25 recommended. */
export const WizardTargetProblems = targetStory(
  'problems_solved',
  'problems',
  '10',
  'Recommended: 10–25 problems per week',
);
/** Step 3, minutes: 30 by default, 30–60 recommended. */
export const WizardTargetMinutes = targetStory(
  'study_time',
  'minutes',
  '30',
  'Recommended: 30–60 minutes per week',
);
/** Step 3, topics: 3 by default, 3–7 recommended. */
export const WizardTargetTopics = targetStory(
  'topics_learned',
  'topics',
  '3',
  'Recommended: 3–7 topics per week',
);

/** Step 3's quick picks for one goal type; the one picked is pressed. */
function quickPicksStory(goalType: GoalType, picks: string[]): Story {
  return {
    play: async ({ canvasElement }) => {
      const wizard = await toTarget(canvasElement, goalType);
      const group = within(wizard).getByRole('group', { name: 'Quick picks' });
      await expect(
        within(group)
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual(picks);
      await userEvent.click(within(group).getByRole('button', { name: picks[2] }));
      await expect(within(group).getByRole('button', { name: picks[2] })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
    },
  };
}

/** Quick picks 10/15/20/25 for problems. */
export const WizardQuickPicksProblems = quickPicksStory('problems_solved', [
  '10',
  '15',
  '20',
  '25',
]);
/** Quick picks 30/45/60/90 for study time. */
export const WizardQuickPicks = quickPicksStory('study_time', ['30', '45', '60', '90']);
/** Quick picks 3/5/7/10 for topics. */
export const WizardQuickPicksTopics = quickPicksStory('topics_learned', ['3', '5', '7', '10']);

/** A target outside 1–999: the field says so and Next waits. */
export const WizardTargetOutOfRange: Story = {
  play: async ({ canvasElement }) => {
    const wizard = await toTarget(canvasElement, 'problems_solved');
    const field = within(wizard).getByRole('spinbutton', { name: 'Weekly target (problems)' });
    await userEvent.clear(field);
    await userEvent.type(field, '1000');
    await expect(within(wizard).getByRole('alert')).toHaveTextContent(
      'Target must be a whole number from 1 to 999',
    );
    await expect(within(wizard).getByRole('button', { name: 'Next' })).toBeDisabled();
  },
};

/** Step 4, the review, of a goal of `goalType` at its default target. */
function reviewStory(goalType: GoalType, target: string): Story {
  return {
    play: async ({ canvasElement }) => {
      const wizard = await toTarget(canvasElement, goalType);
      await userEvent.click(within(wizard).getByRole('button', { name: 'Next' }));
      await expect(wizard).toHaveAccessibleDescription('Step 4 of 4: Review');
      await expect(within(wizard).getByText(target)).toBeVisible();
    },
  };
}

/** Step 4: the review of a problems goal. */
export const WizardReviewProblems = reviewStory('problems_solved', '10 problems per week');
/** Step 4: the review of a study-time goal. */
export const WizardReviewMinutes = reviewStory('study_time', '30 minutes per week');
/** Step 4: the review of a topics goal. */
export const WizardReview = reviewStory('topics_learned', '3 topics per week');

/** Creating: the button is busy, Cancel waits. */
export const WizardCreating: Story = {
  args: { adapter: fakeGoalsAdapter({ create: (_b, o) => pending(o) }) },
  play: async ({ canvasElement }) => {
    const wizard = await toTarget(canvasElement, 'problems_solved');
    await userEvent.click(within(wizard).getByRole('button', { name: 'Next' }));
    await userEvent.click(within(wizard).getByRole('button', { name: 'Create goal' }));
    await expect(within(wizard).getByRole('button', { name: 'Create goal' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
    await expect(within(wizard).getByRole('button', { name: 'Cancel' })).toBeDisabled();
  },
};

/** A fourth subject: the server's refusal on step 4. */
export const WizardSubjectLimit: Story = {
  play: async ({ canvasElement }) => {
    const wizard = await openWizard(canvasElement);
    await userEvent.click(within(wizard).getByRole('button', { name: 'Create a custom goal' }));
    await userEvent.click(within(wizard).getByRole('radio', { name: 'History' }));
    await userEvent.click(within(wizard).getByRole('button', { name: 'Next' }));
    await userEvent.click(within(wizard).getByRole('button', { name: /Study Time/ }));
    await userEvent.click(within(wizard).getByRole('button', { name: 'Next' }));
    await userEvent.click(within(wizard).getByRole('button', { name: 'Create goal' }));
    await expect(await within(wizard).findByRole('alert')).toHaveTextContent(
      'You can only create a maximum of 3 courses at a time.',
    );
  },
};

/** Created: the toast names subject, type and target per week; the card joins the board. */
function createdStory(goalType: GoalType, message: string): Story {
  return {
    play: async ({ canvasElement }) => {
      const wizard = await toTarget(canvasElement, goalType);
      await userEvent.click(within(wizard).getByRole('button', { name: 'Next' }));
      await userEvent.click(within(wizard).getByRole('button', { name: 'Create goal' }));
      await expect(await screen.findByText(message)).toBeVisible();
      await waitFor(() => expect(within(canvasElement).getAllByRole('article')).toHaveLength(4));
    },
  };
}

/** Created: a problems goal. */
export const WizardCreatedProblems = createdStory(
  'problems_solved',
  'Math goal created: 10 problems per week!',
);
/** Created: a study-time goal. */
export const WizardCreated = createdStory('study_time', 'Math goal created: 30 minutes per week!');
/** Created: a topics goal. */
export const WizardCreatedTopics = createdStory(
  'topics_learned',
  'Math goal created: 3 topics per week!',
);

/** Edit: a goal at 24 % may change its target. */
export const EditAllowed: Story = {
  play: async ({ canvasElement }) => {
    const list = await goalsList(canvasElement);
    await userEvent.click(
      within(list).getByRole('button', { name: 'Edit Math · Problems Solved goal' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit goal' });
    await expect(
      within(dialog).getByRole('spinbutton', { name: 'Weekly target (problems)' }),
    ).toHaveValue(20);
  },
};

/** Edit: over 50 % the goal is locked. */
export const EditLocked: Story = {
  play: async ({ canvasElement }) => {
    const list = await goalsList(canvasElement);
    await userEvent.click(
      within(list).getByRole('button', { name: 'Edit Science · Study Time goal' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit goal' });
    await expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Goals with more than 50% progress cannot be edited.',
    );
  },
};

/** Delete asks first. */
export const DeleteConfirm: Story = {
  play: async ({ canvasElement }) => {
    const list = await goalsList(canvasElement);
    await userEvent.click(
      within(list).getByRole('button', { name: 'Delete Math · Problems Solved goal' }),
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete goal?' });
    await expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
  },
};

/** Progress history, 4 days a page, on its second page. */
export const ProgressHistory: Story = {
  args: { adapter: fakeGoalsAdapter({}, { history: historyDays(7) }) },
  play: async ({ canvasElement }) => {
    const list = await goalsList(canvasElement);
    await userEvent.click(
      within(list).getByRole('button', { name: 'Progress history of Math · Problems Solved goal' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Progress history' });
    await within(dialog).findByText('Page 1 of 2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    await within(dialog).findByText('Page 2 of 2');
    await waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(3));
  },
};

/** Log progress: value, an optional topic and minutes. */
export const LogProgress: Story = {
  play: async ({ canvasElement }) => {
    const list = await goalsList(canvasElement);
    const card = within(list).getByRole('article', { name: 'Math · Problems Solved' });
    await userEvent.click(within(card).getByRole('button', { name: 'Log progress' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log progress' });
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Topic (optional)' }),
      'Fractions',
    );
    await expect(
      within(dialog).getByRole('spinbutton', { name: 'Minutes spent (optional)' }),
    ).toBeVisible();
  },
};

const MESSAGES = {
  25: 'Great start! 25% of your Math goal is done.',
  50: 'Halfway there! 50% of your Math goal is done.',
  75: 'Almost there! 75% of your Math goal is done.',
  100: 'Goal complete! You finished your Math goal this week.',
} as const;

function celebration(milestone: 25 | 50 | 75 | 100, reducedMotion: boolean): Story {
  return {
    args: {
      reducedMotion,
      // The celebration stays until dismissed: the story shows it for as long as it is looked at.
      celebrationMs: null,
      adapter: fakeGoalsAdapter(
        {},
        {
          goals: [goal('g', 'math', 'problems_solved', 20, milestone)],
          celebrations: [{ goal_id: 'g', milestone }],
        },
      ),
    },
    play: async ({ canvasElement }) => {
      const canvas = within(canvasElement);
      const text = await canvas.findByText(MESSAGES[milestone], { selector: 'p' });
      const banner = text.closest('[data-slot="goal-celebration"]')!;
      await expect(banner).toHaveAttribute('data-motion', reducedMotion ? 'reduced' : 'confetti');
      // Announced in a polite live region.
      await expect(
        canvas.getAllByRole('status').some((s) => s.textContent === MESSAGES[milestone]),
      ).toBe(true);
      if (!reducedMotion)
        await waitFor(() => expect(document.querySelector('canvas')).not.toBeNull());
    },
  };
}

/** 25 %, with confetti. */
export const Celebrate25 = celebration(25, false);
/** 25 %, reduced motion: a calm message. */
export const Celebrate25Calm = celebration(25, true);
/** 50 %, with confetti. */
export const Celebrate50 = celebration(50, false);
/** 50 %, reduced motion. */
export const Celebrate50Calm = celebration(50, true);
/** 75 %, with confetti. */
export const Celebrate75 = celebration(75, false);
/** 75 %, reduced motion. */
export const Celebrate75Calm = celebration(75, true);
/** 100 %, with confetti. */
export const Celebrate100 = celebration(100, false);
/** 100 %, reduced motion. */
export const Celebrate100Calm = celebration(100, true);

/** In a portal's 320 px side column. */
export const Widget320: Story = {
  render: (args) => (
    <div style={{ width: 320 }}>
      <GoalsBoard {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    await goalsList(canvasElement);
    const board = canvasElement.querySelector<HTMLElement>('[data-slot="goals-board"]')!;
    await expect(board.scrollWidth).toBeLessThanOrEqual(320);
  },
};

/** Dark theme. */
export const Dark: Story = {
  args: { theme: 'dark', adapter: fakeGoalsAdapter({}, { goals: edgeGoals }) },
  play: async ({ canvasElement }) => {
    await goalsList(canvasElement);
    await expect(canvasElement.querySelector('[data-slot="goals-board"]')).toHaveAttribute(
      'data-theme',
      'dark',
    );
  },
};

/** Signed out (the guest): asked to sign in. */
export const Guest: Story = {
  args: { user: { id: 'guest-user' }, onSignIn: fn() },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('Please sign in to access all features')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
    await expect(args.onSignIn).toHaveBeenCalled();
  },
};
