import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import {
  apiError,
  edgeGoals,
  fakeGoalsAdapter,
  type FakeGoalsOptions,
  goal,
} from '../../../fakes/goals';
import type { GoalsAdapter } from '../../../src/api';
import { GoalsBoard, type GoalsBoardProps } from '../../../src/goals/GoalsBoard';
import { clearToasts, renderWithToasts } from '../render';

// canvas-confetti's cannon: created once, for the main thread (no worker: issue 25 item 2).
const confetti = vi.hoisted(() => {
  const fire = vi.fn(async () => undefined);
  return { fire, create: vi.fn(() => fire) };
});
vi.mock('canvas-confetti', () => ({ default: { create: confetti.create } }));

// The board loads its dialogs' module once it has drawn (GoalDialogs, lazily), as a browser would
// when idle. Its first import here is a transform of the wizard and Radix's dialog: seconds on a
// busy runner, past findByRole's 1 s. Loaded before the tests, a dialog opens as soon as it is asked.
beforeAll(() => import('../../../src/goals/GoalDialogs'));

afterEach(() => {
  clearToasts();
  vi.restoreAllMocks();
});

function renderBoard(
  overrides: Partial<GoalsAdapter> = {},
  options: FakeGoalsOptions = {},
  props: Partial<GoalsBoardProps> = {},
) {
  const adapter = fakeGoalsAdapter(overrides, options);
  return {
    adapter,
    ...renderWithToasts(<GoalsBoard adapter={adapter} reducedMotion {...props} />),
  };
}

const goalList = () => screen.findByRole('list', { name: 'Goals of the week' });
const stat = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

describe('<GoalsBoard>', { timeout: 30_000 }, () => {
  it('shows the stats, a card per goal and Recent Activity', async () => {
    renderBoard();
    const list = await goalList();
    const cards = within(list).getAllByRole('article');
    expect(cards).toHaveLength(3);
    const math = within(list).getByRole('article', { name: 'Math · Problems Solved' });
    expect(within(math).getByText('20 problems per week')).toBeInTheDocument();
    expect(within(math).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '24');
    expect(within(math).getByRole('progressbar')).toHaveAttribute('data-tone', 'low');
    const science = within(list).getByRole('article', { name: 'Science · Study Time' });
    expect(within(science).getByText('Study time: 0.75 hours')).toBeInTheDocument();
    await waitFor(() => expect(stat('This Week')).toHaveTextContent('1'));
    expect(stat('Active Goals')).toHaveTextContent('3');
    expect(stat('Avg Progress')).toHaveTextContent('66%');
    expect(stat('Day Streak')).toHaveTextContent('3');
    const activity = screen.getByRole('region', { name: 'Recent Activity' });
    expect(within(activity).getAllByRole('listitem')).toHaveLength(3);
  });

  it('colours each bar by its band: red under 25, yellow under 75, else green', async () => {
    renderBoard({}, { goals: edgeGoals });
    const bars = within(await goalList()).getAllByRole('progressbar');
    expect(bars.map((bar) => bar.getAttribute('data-tone'))).toEqual([
      'low',
      'low',
      'mid',
      'mid',
      'high',
      'high',
    ]);
  });

  it('invites a first goal: a suggestion card opens the wizard at step 2', async () => {
    const { user } = renderBoard({}, { goals: [], activities: [] }, { interests: ['history'] });
    const cards = await screen.findByRole('list', { name: 'Suggested goals' });
    const buttons = within(cards).getAllByRole('button');
    expect(buttons[0]).toHaveTextContent('Discover history');
    await user.click(buttons[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Create a new goal' });
    expect(dialog).toHaveAccessibleDescription('Step 2 of 4: Goal type');
  });

  it('creates a goal through the wizard and toasts the created message', async () => {
    const adapter = fakeGoalsAdapter({}, { goals: [] });
    const create = vi.spyOn(adapter, 'create');
    const { user } = renderWithToasts(<GoalsBoard adapter={adapter} />);
    await screen.findByRole('list', { name: 'Suggested goals' });
    await user.click(screen.getByRole('button', { name: 'New goal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a new goal' });
    await user.click(within(dialog).getByRole('button', { name: 'Create a custom goal' }));
    await user.click(within(dialog).getByRole('radio', { name: 'English' }));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await user.click(within(dialog).getByRole('button', { name: /Topics Learned/ }));
    const field = within(dialog).getByRole('spinbutton', { name: 'Weekly target (topics)' });
    expect(field).toHaveValue(3);
    expect(field).toHaveAccessibleDescription('Recommended: 3–7 topics per week');
    await user.click(within(dialog).getByRole('button', { name: '7' }));
    expect(field).toHaveValue(7);
    await user.clear(field);
    await user.type(field, '1000');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Target must be a whole number from 1 to 999',
    );
    expect(within(dialog).getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.clear(field);
    await user.type(field, '5');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(dialog).toHaveAccessibleDescription('Step 4 of 4: Review');
    expect(within(dialog).getByText('5 topics per week')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create goal' }));
    expect(await screen.findByText('English goal created: 5 topics per week!')).toBeInTheDocument();
    expect(create).toHaveBeenCalledWith(
      { subject: 'english', goal_type: 'topics_learned', target_value: 5 },
      expect.anything(),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      within(await goalList()).getByRole('article', { name: 'English · Topics Learned' }),
    ).toBeInTheDocument();
  });

  it("shows the server's 3-subject refusal on the review step", async () => {
    const { user } = renderBoard();
    await goalList();
    await user.click(screen.getByRole('button', { name: 'New goal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a new goal' });
    await user.click(within(dialog).getByRole('button', { name: 'Create a custom goal' }));
    await user.click(within(dialog).getByRole('radio', { name: 'History' }));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await user.click(within(dialog).getByRole('button', { name: /Study Time/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create goal' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'You can only create a maximum of 3 courses at a time.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('edits a target, and explains a locked goal', async () => {
    const { user } = renderBoard();
    const list = await goalList();
    await user.click(
      within(list).getByRole('button', { name: 'Edit Math · Problems Solved goal' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit goal' });
    const field = within(dialog).getByRole('spinbutton', { name: 'Weekly target (problems)' });
    await user.clear(field);
    await user.type(field, '25');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Goal updated successfully!')).toBeInTheDocument();
    expect(within(list).getByText('25 problems per week')).toBeInTheDocument();

    await user.click(within(list).getByRole('button', { name: 'Edit Science · Study Time goal' }));
    const locked = await screen.findByRole('dialog', { name: 'Edit goal' });
    expect(within(locked).getByRole('alert')).toHaveTextContent(
      'Goals with more than 50% progress cannot be edited.',
    );
    expect(within(locked).queryByRole('spinbutton')).not.toBeInTheDocument();
  });

  it('deletes a goal after confirming', async () => {
    const { user } = renderBoard();
    const list = await goalList();
    await user.click(
      within(list).getByRole('button', { name: 'Delete Math · Problems Solved goal' }),
    );
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete goal?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Goal deleted successfully')).toBeInTheDocument();
    expect(within(list).getAllByRole('article')).toHaveLength(2);
  });

  it('pages the progress history, 4 days a page', async () => {
    const { user } = renderBoard();
    const list = await goalList();
    await user.click(
      within(list).getByRole('button', { name: 'Progress history of Math · Problems Solved goal' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Progress history' });
    const days = await within(dialog).findByRole('list', { name: 'Progress by day' });
    expect(within(days).getAllByRole('listitem')).toHaveLength(4);
    expect(within(days).getAllByRole('listitem')[0]).toHaveTextContent('2 problems · 0.25 hours');
    expect(within(dialog).getByText('Page 1 of 2')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await within(dialog).findByText('Page 2 of 2')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(2));
  });

  // Issue 25 item 1: one log celebrates once, the highest milestone it crossed, in the card's numbers.
  it('logs progress and celebrates the milestone, announced to screen readers', async () => {
    const adapter = fakeGoalsAdapter(
      {},
      { goals: [goal('g', 'math', 'problems_solved', 15, 0)], activities: [] },
    );
    const logProgress = vi.spyOn(adapter, 'logProgress');
    const { user } = renderWithToasts(<GoalsBoard adapter={adapter} reducedMotion />);
    const list = await goalList();
    const log = async (problems: string, extra: boolean) => {
      await user.click(within(list).getByRole('button', { name: 'Log progress' }));
      const dialog = await screen.findByRole('dialog', { name: 'Log progress' });
      const value = within(dialog).getByRole('spinbutton', { name: 'Problems solved' });
      await user.clear(value);
      await user.type(value, problems);
      if (extra) {
        await user.type(
          within(dialog).getByRole('textbox', { name: 'Topic (optional)' }),
          'Ratios',
        );
        await user.type(
          within(dialog).getByRole('spinbutton', { name: 'Minutes spent (optional)' }),
          '20',
        );
      }
      await user.click(within(dialog).getByRole('button', { name: 'Log progress' }));
      await waitFor(() =>
        expect(screen.queryByRole('dialog', { name: 'Log progress' })).not.toBeInTheDocument(),
      );
    };
    const banners = () => document.querySelectorAll('[data-slot="goal-celebration"]');

    // 5 of 15: the card says 33 %, and so does the celebration.
    await log('5', true);
    expect(await screen.findByText('Progress logged!')).toBeInTheDocument();
    expect(logProgress).toHaveBeenCalledWith(
      'g',
      { value: 5, topic: 'Ratios', minutes: 20 },
      expect.anything(),
    );
    const banner = await screen.findByText('Great start! 33% of your Math goal is done.', {
      selector: 'p',
    });
    expect(within(list).getByText('33%')).toBeInTheDocument();
    expect(banner).toHaveTextContent(/^33% · Great start!/);
    expect(banner.closest('[data-slot="goal-celebration"]')).toHaveAttribute(
      'data-motion',
      'reduced',
    );
    expect(
      screen
        .getAllByRole('status')
        .some((s) => s.textContent === 'Great start! 33% of your Math goal is done.'),
    ).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Dismiss celebration' }));
    expect(banners()).toHaveLength(0);

    // 10 more at once crosses 50, 75 and 100: one celebration, the goal complete.
    await log('10', false);
    expect(
      await screen.findByText('Goal complete! You finished your Math goal this week.', {
        selector: 'p',
      }),
    ).toBeInTheDocument();
    expect(banners()).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Dismiss celebration' }));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(banners()).toHaveLength(0);
    await waitFor(() => expect(stat('This Week')).toHaveTextContent('1'));
  });

  it('keeps a celebration until dismissed when told to (stories), else for its 6 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const banners = () => document.querySelectorAll('[data-slot="goal-celebration"]');
      const options = { celebrations: [{ goal_id: 'g-english', milestone: 100 as const }] };
      const kept = renderBoard({}, options, { celebrationMs: null });
      await waitFor(() => expect(banners()).toHaveLength(1));
      await act(() => vi.advanceTimersByTimeAsync(10 * 60_000));
      expect(banners()).toHaveLength(1);
      kept.unmount();

      renderBoard({}, options);
      await waitFor(() => expect(banners()).toHaveLength(1));
      await act(() => vi.advanceTimersByTimeAsync(6_100));
      expect(banners()).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fires confetti when motion is allowed, loading it only then', async () => {
    confetti.fire.mockClear();
    renderBoard(
      {},
      { celebrations: [{ goal_id: 'g-english', milestone: 100 }] },
      { reducedMotion: false },
    );
    const banner = await screen.findByText(
      'Goal complete! You finished your English goal this week.',
      {
        selector: 'p',
      },
    );
    expect(banner.closest('[data-slot="goal-celebration"]')).toHaveAttribute(
      'data-motion',
      'confetti',
    );
    await waitFor(() => expect(confetti.fire).toHaveBeenCalledTimes(1));
    // A CSP of `script-src 'self'` refuses canvas-confetti's blob: worker: drawn on the main thread.
    expect(confetti.create).toHaveBeenCalledWith(
      undefined,
      expect.objectContaining({ useWorker: false }),
    );
  });

  it("logs 'Failed to fetch goals' and offers to try again", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const listCurrent = vi.fn().mockRejectedValueOnce(apiError());
    listCurrent.mockImplementation(fakeGoalsAdapter().listCurrent);
    const { user } = renderBoard({ listCurrent });
    expect(await screen.findByText('Your goals could not be loaded.')).toBeInTheDocument();
    expect(error).toHaveBeenCalledWith('Failed to fetch goals', expect.anything());
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await goalList()).toBeInTheDocument();
  });

  it('asks a guest to sign in', async () => {
    const onSignIn = vi.fn();
    const listCurrent = vi.fn();
    const { user } = renderBoard({ listCurrent }, {}, { user: { id: 'guest-user' }, onSignIn });
    expect(screen.getByText('Please sign in to access all features')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onSignIn).toHaveBeenCalled();
    expect(listCurrent).not.toHaveBeenCalled();
  });
});
