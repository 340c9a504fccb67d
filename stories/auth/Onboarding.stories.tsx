import type { Meta, StoryObj } from '@storybook/react-vite';
import { Onboarding } from 'ayah-coach/auth';
import { AUTH_MESSAGES } from 'ayah-coach/rules';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';

import { apiError, fakeAuthAdapter, never, rejects } from '../../fakes/auth';
import { clearToasts, findToast } from '../support';

const meta = {
  title: 'Auth/Onboarding',
  component: Onboarding,
  args: { adapter: fakeAuthAdapter(), onDone: fn(), name: 'Ada' },
  beforeEach: clearToasts,
} satisfies Meta<typeof Onboarding>;

export default meta;
type Story = StoryObj<typeof meta>;

async function next(canvasElement: HTMLElement) {
  await userEvent.click(within(canvasElement).getByRole('button', { name: 'Next' }));
}

async function toTour(canvasElement: HTMLElement) {
  await next(canvasElement);
  await userEvent.click(within(canvasElement).getByRole('checkbox', { name: 'Math' }));
  await userEvent.click(within(canvasElement).getByRole('checkbox', { name: 'Science' }));
  await next(canvasElement);
}

export const Welcome: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('Step 1 of 3')).toBeVisible();
    await expect(canvas.getByRole('heading', { name: 'Welcome to Ayah, Ada!' })).toBeVisible();
  },
};

export const Subjects: Story = {
  play: async ({ canvasElement }) => {
    await next(canvasElement);
    const canvas = within(canvasElement);
    await expect(
      canvas.getByRole('heading', { name: 'What would you like to learn?' }),
    ).toHaveFocus();
    await userEvent.click(canvas.getByRole('checkbox', { name: 'History' }));
    await expect(canvas.getByRole('checkbox', { name: 'History' })).toBeChecked();
  },
};

export const Tour: Story = {
  play: async ({ canvasElement }) => {
    await toTour(canvasElement);
    await expect(
      within(canvasElement).getByRole('heading', { name: 'How Ayah helps you learn' }),
    ).toHaveFocus();
  },
};

export const Completing: Story = {
  args: { adapter: fakeAuthAdapter({ completeOnboarding: never }) },
  play: async ({ canvasElement }) => {
    await toTour(canvasElement);
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Start learning' }));
    await expect(
      within(canvasElement).getByRole('button', { name: 'Start learning' }),
    ).toHaveAttribute('aria-busy', 'true');
  },
};

export const Done: Story = {
  play: async ({ canvasElement, args }) => {
    await toTour(canvasElement);
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Start learning' }));
    await waitFor(() =>
      expect(args.onDone).toHaveBeenCalledWith(
        expect.objectContaining({ subjects: ['math', 'science'] }),
      ),
    );
    await expect(
      within(canvasElement).getByRole('heading', { name: 'You are all set!' }),
    ).toBeVisible();
  },
};

export const Failed: Story = {
  args: { adapter: fakeAuthAdapter({ completeOnboarding: rejects(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    await toTour(canvasElement);
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Start learning' }));
    await findToast(AUTH_MESSAGES.onboardingFailed, 'alert');
  },
};
