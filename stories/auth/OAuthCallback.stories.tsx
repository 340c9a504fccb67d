import type { Meta, StoryObj } from '@storybook/react-vite';
import { OAuthCallback } from 'ayah-coach/auth';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';

import { clearToasts, findToast } from '../support';

const SUCCESS = '?code=one-time-code';

const meta = {
  title: 'Auth/OAuthCallback',
  component: OAuthCallback,
  args: {
    adapter: {
      exchangeSignInCode: fn(async () => ({
        access_token: 'tok-google',
        token_type: 'bearer' as const,
        user: {} as never,
      })),
    },
    search: SUCCESS,
    signInState: 'kept-by-this-browser',
    onSignedIn: fn(),
    onNavigate: fn(),
    clearAddressBar: fn(),
  },
  beforeEach: clearToasts,
} satisfies Meta<typeof OAuthCallback>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The session is still loading the user. */
export const SigningIn: Story = {
  args: { onSignedIn: fn(() => new Promise(() => {})) },
  play: async ({ canvasElement, args }) => {
    await expect(args.clearAddressBar).toHaveBeenCalledTimes(1);
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent(
      'Finishing your Google sign-in…',
    );
  },
};

export const Success: Story = {
  play: async ({ args }) => {
    await findToast('Successfully signed in with Google!');
    await expect(args.onSignedIn).toHaveBeenCalledWith('tok-google', null);
    await expect(args.onNavigate).toHaveBeenCalledWith('/');
  },
};

/** Google answered with `?error=`: the message, then back to /auth after 3 s. */
export const ErrorReturned: Story = {
  args: { search: '?error=access_denied' },
  parameters: { settle: { onPurposeMs: 3000, why: 'the spec’s redirect to /auth after 3 s' } },
  play: async ({ canvasElement, args }) => {
    await findToast('OAuth error: access_denied', 'alert');
    await expect(
      within(canvasElement).getByText('OAuth error: access_denied', { selector: 'p' }),
    ).toBeVisible();
    await expect(args.onNavigate).not.toHaveBeenCalled();
    await waitFor(() => expect(args.onNavigate).toHaveBeenCalledWith('/auth'), { timeout: 4000 });
  },
};

export const NoAccessToken: Story = {
  args: { search: '?access_token=from-a-link&token_type=bearer' },
  play: async () => {
    await findToast('Authentication failed: No access token received', 'alert');
  },
};

/** The token came, but the session could not load the user with it. */
export const CompletionFailed: Story = {
  args: { onSignedIn: fn(() => Promise.reject(new Error('401'))) },
  play: async () => {
    await findToast('Failed to complete Google sign-in', 'alert');
  },
};

const SAM = { id: 'user-9', email: 'sam@example.com', display_name: 'Sam' };
const ADA = { id: 'user-1', email: 'ada@example.org', display_name: 'Ada' };
const exchangedForAda = fn(async () => ({
  access_token: 'tok-ada',
  refresh_token: 'refresh-ada',
  token_type: 'bearer' as const,
  user: ADA as never,
}));

/** Exchanged, but the session has not said yet who is signed in: the page waits. */
export const WaitingForSession: Story = {
  args: {
    adapter: { exchangeSignInCode: exchangedForAda },
    sessionPending: true,
  },
  play: async ({ canvasElement, args }) => {
    await within(canvasElement).findByText('Welcome, Ada! Finishing your Google sign-in…');
    await expect(args.onSignedIn).not.toHaveBeenCalled();
  },
};

/** Another account is signed in: both are shown, staying has the focus, nothing changes yet. */
export const AskBeforeSwitching: Story = {
  args: {
    adapter: { exchangeSignInCode: exchangedForAda, logout: fn(async () => ({ message: 'ok' })) },
    currentUser: SAM,
  },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const question = await canvas.findByRole('region', { name: 'You are already signed in' });
    await expect(question).toHaveTextContent('sam@example.com');
    await expect(question).toHaveTextContent('ada@example.org');
    await expect(canvas.getByRole('button', { name: 'Stay signed in as Sam' })).toHaveFocus();
    await expect(args.onSignedIn).not.toHaveBeenCalled();
  },
};

/** Staying (Enter on the focused button): the unused sign-in is signed out, then '/'. */
export const StayedSignedIn: Story = {
  args: AskBeforeSwitching.args,
  play: async ({ canvasElement, args }) => {
    await within(canvasElement).findByRole('button', { name: 'Stay signed in as Sam' });
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(args.onNavigate).toHaveBeenCalledWith('/'));
    await expect(args.adapter.logout).toHaveBeenCalledWith({ refresh_token: 'refresh-ada' });
    await expect(args.onSignedIn).not.toHaveBeenCalled();
  },
};

/** Switching: the link's account is signed in. */
export const SwitchedAccount: Story = {
  args: AskBeforeSwitching.args,
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Switch to Ada' }));
    await findToast('Successfully signed in with Google!');
    await expect(args.onSignedIn).toHaveBeenCalledWith('tok-ada', 'refresh-ada');
  },
};
