import type { Meta, StoryObj } from '@storybook/react-vite';
import { ResetPassword } from 'ayah-coach/auth';
import { AUTH_MESSAGES } from 'ayah-coach/rules';
import { expect, fn, userEvent, within } from 'storybook/test';

import { apiError, fakeAuthAdapter, never, rejects } from '../../fakes/auth';
import { clearToasts, findToast } from '../support';

const meta = {
  title: 'Auth/ResetPassword',
  component: ResetPassword,
  args: { adapter: fakeAuthAdapter(), token: 'reset-1', onNavigate: fn() },
  beforeEach: clearToasts,
} satisfies Meta<typeof ResetPassword>;

export default meta;
type Story = StoryObj<typeof meta>;

async function type(canvasElement: HTMLElement, password: string) {
  await userEvent.type(within(canvasElement).getByLabelText('New password'), password);
}

async function submit(canvasElement: HTMLElement) {
  await userEvent.click(within(canvasElement).getByRole('button', { name: 'Reset Password' }));
}

export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: 'Back to Sign In' })).toHaveTextContent(
      '← Back to Sign In',
    );
  },
};

/** A weak password: the meter, the checklist, and the refusal under the field. */
export const Weak: Story = {
  play: async ({ canvasElement }) => {
    await type(canvasElement, 'abc1');
    const canvas = within(canvasElement);
    await expect(canvas.getByText('Password strength:', { exact: false })).toHaveTextContent(
      'Password strength: Weak',
    );
    await submit(canvasElement);
    await expect(canvas.getByLabelText('New password')).toHaveAccessibleDescription(
      expect.stringContaining('Password does not meet requirements:'),
    );
  },
};

export const Strong: Story = {
  play: async ({ canvasElement }) => {
    await type(canvasElement, 'Str0ng!pass');
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Show password' }));
    await expect(canvas.getByLabelText('New password')).toHaveAttribute('type', 'text');
    await expect(canvas.getByText('Password strength:', { exact: false })).toHaveTextContent(
      'Password strength: Strong',
    );
  },
};

export const Submitting: Story = {
  args: { adapter: fakeAuthAdapter({ confirmPasswordReset: never }) },
  play: async ({ canvasElement }) => {
    await type(canvasElement, 'Str0ng!pass');
    await submit(canvasElement);
    await expect(
      within(canvasElement).getByRole('button', { name: 'Resetting...' }),
    ).toHaveAttribute('aria-busy', 'true');
  },
};

export const Success: Story = {
  play: async ({ canvasElement, args }) => {
    await type(canvasElement, 'Str0ng!pass');
    await submit(canvasElement);
    await findToast('Password reset successfully!');
    await expect(args.onNavigate).toHaveBeenCalledWith('/auth');
  },
};

export const Failed: Story = {
  args: { adapter: fakeAuthAdapter({ confirmPasswordReset: rejects(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    await type(canvasElement, 'Str0ng!pass');
    await submit(canvasElement);
    await expect(
      await within(canvasElement).findByText('Failed to reset password.'),
    ).toHaveAttribute('role', 'alert');
  },
};

export const ExpiredLink: Story = {
  args: {
    adapter: fakeAuthAdapter({
      confirmPasswordReset: rejects(apiError(400, 'Invalid or expired reset token')),
    }),
  },
  play: async ({ canvasElement }) => {
    await type(canvasElement, 'Str0ng!pass');
    await submit(canvasElement);
    await expect(
      await within(canvasElement).findByText('Invalid or expired reset token'),
    ).toBeVisible();
  },
};

export const MissingToken: Story = {
  args: { token: null },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent(
      AUTH_MESSAGES.resetLinkMissing,
    );
  },
};
