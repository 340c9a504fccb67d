import type { Meta, StoryObj } from '@storybook/react-vite';
import { VerifyEmail } from 'ayah-coach/auth';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';

import { apiError, fakeAuthAdapter, never, rejects } from '../../fakes/auth';
import { clearToasts, findToast } from '../support';

const meta = {
  title: 'Auth/VerifyEmail',
  component: VerifyEmail,
  args: {
    adapter: fakeAuthAdapter(),
    email: 'ada@example.org',
    onNavigate: fn(),
    onSignedIn: fn(),
    supportHref: 'mailto:help@school.example',
  },
  beforeEach: clearToasts,
} satisfies Meta<typeof VerifyEmail>;

export default meta;
type Story = StoryObj<typeof meta>;

async function resend(canvasElement: HTMLElement) {
  await userEvent.click(
    within(canvasElement).getByRole('button', { name: 'Resend verification email' }),
  );
}

/** Opened without `?email=`. */
export const WithoutEmail: Story = {
  args: { email: undefined },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Invalid Page Access' })).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Go to registration' }));
    await expect(args.onNavigate).toHaveBeenCalledWith('/register');
  },
};

export const CheckYourEmail: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Back to Login' })).toHaveAttribute(
      'href',
      '/login',
    );
    await expect(canvas.getByRole('link', { name: 'Need help? Contact support' })).toBeVisible();
  },
};

export const ResendSending: Story = {
  args: { adapter: fakeAuthAdapter({ resendVerification: never }) },
  play: async ({ canvasElement }) => {
    await resend(canvasElement);
    await expect(within(canvasElement).getByRole('button', { name: 'Sending...' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
  },
};

/** The banner shows, then clears after 3 s. */
export const ResendSuccess: Story = {
  parameters: { settle: { onPurposeMs: 3000, why: 'the success banner leaving after 3 s' } },
  play: async ({ canvasElement }) => {
    await resend(canvasElement);
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Verification email resent successfully!')).toBeVisible();
    await waitFor(
      () => expect(canvas.queryByText('Verification email resent successfully!')).toBeNull(),
      { timeout: 4000 },
    );
  },
};

export const ResendFailed: Story = {
  args: { adapter: fakeAuthAdapter({ resendVerification: rejects(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    await resend(canvasElement);
    await expect(await within(canvasElement).findByRole('alert')).toHaveTextContent(
      'Failed to resend verification email',
    );
  },
};

export const ResendFailedWithServerMessage: Story = {
  args: {
    adapter: fakeAuthAdapter({
      resendVerification: rejects(apiError(429, 'Please wait a minute before asking again.')),
    }),
  },
  play: async ({ canvasElement }) => {
    await resend(canvasElement);
    await expect(await within(canvasElement).findByRole('alert')).toHaveTextContent(
      'Please wait a minute before asking again.',
    );
  },
};

/** The emailed link (`?token=`) being checked. */
export const VerifyingLink: Story = {
  args: { email: undefined, token: 'link-1', adapter: fakeAuthAdapter({ verifyEmail: never }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent(
      'Checking your verification link…',
    );
  },
};

export const LinkVerified: Story = {
  args: { email: undefined, token: 'link-1' },
  play: async ({ args }) => {
    await findToast('Signed in successfully!');
    await expect(args.onSignedIn).toHaveBeenCalledWith('tok-fake', 'refresh-fake');
    await expect(args.onNavigate).toHaveBeenCalledWith('/onboarding');
  },
};

export const LinkRefused: Story = {
  args: {
    email: undefined,
    token: 'used',
    adapter: fakeAuthAdapter({
      verifyEmail: rejects(apiError(400, 'Invalid or expired verification token')),
    }),
  },
  play: async ({ canvasElement, args }) => {
    await findToast('Invalid or expired verification token', 'alert');
    await expect(args.onNavigate).toHaveBeenCalledWith('/auth');
    await expect(within(canvasElement).getByRole('link', { name: 'Go to sign in' })).toBeVisible();
  },
};

const SAM = { id: 'user-9', email: 'sam@example.com', display_name: 'Sam' };

/**
 * The link of another account than the one signed in: verified, but nobody is signed in with it;
 * the page says so, shows both accounts, and staying (focused) keeps the current session.
 */
export const VerifiedForAnotherAccount: Story = {
  args: { email: undefined, token: 'link-other', currentUser: SAM, adapter: fakeAuthAdapter() },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('status')).toHaveTextContent(
      'ada@example.org is verified. You are still signed in as Sam.',
    );
    const stay = canvas.getByRole('button', { name: 'Stay signed in as Sam' });
    await expect(stay).toHaveFocus();
    await expect(canvas.getByRole('button', { name: 'Switch to Ada' })).toBeVisible();
    await expect(args.onSignedIn).not.toHaveBeenCalled();
  },
};

/** Staying: the link's own sign-in is signed out on the server, and the page goes to /. */
export const StayedInCurrentAccount: Story = {
  args: { email: undefined, token: 'link-stay', currentUser: SAM, adapter: fakeAuthAdapter() },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Stay signed in as Sam' }));
    await waitFor(() => expect(args.onNavigate).toHaveBeenCalledWith('/'));
    await expect(args.onSignedIn).not.toHaveBeenCalled();
  },
};
