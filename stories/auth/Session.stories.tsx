import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from 'ayah-coach';
import { AuthProvider, useAuth } from 'ayah-coach/auth';
import { memoryStorage } from 'ayah-coach/auth';
import { expect, userEvent, within } from 'storybook/test';

import { fakeAuthAdapter, never, newUser } from '../../fakes/auth';
import { clearToasts, findToast } from '../support';

/** What a host reads from `useAuth()`: a small panel for the session's states. */
function SessionPanel() {
  const auth = useAuth();
  const { state } = auth;
  return (
    <section aria-label="Session" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {auth.trialExpired && (
        <p role="status">
          Your trial has ended.{' '}
          <Button size="sm" variant="outline" onClick={auth.dismissTrialExpired}>
            Dismiss
          </Button>
        </p>
      )}
      {state.matches('loading') && <p>Loading your account…</p>}
      {state.matches('signedIn') && (
        <>
          <p>
            Signed in as {auth.user?.display_name} ({auth.isNewUser ? 'new user' : 'returning user'}
            )
          </p>
          <Button onClick={auth.signOut}>Sign Out</Button>
        </>
      )}
      {state.matches('signedOut') && (
        <>
          <p>Guest ({auth.userId})</p>
          <Button onClick={() => void auth.signIn('tok-fake').catch(() => {})}>Sign in</Button>
        </>
      )}
    </section>
  );
}

const meta = {
  title: 'Auth/Session',
  component: AuthProvider,
  args: { adapter: fakeAuthAdapter() },
  render: (args) => (
    <AuthProvider {...args}>
      <SessionPanel />
    </AuthProvider>
  ),
  beforeEach: clearToasts,
} satisfies Meta<typeof AuthProvider>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = {
  args: { adapter: fakeAuthAdapter({ me: never }), storage: memoryStorage({ authToken: 't' }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('Loading your account…')).toBeVisible();
  },
};

export const SignedIn: Story = {
  args: { storage: memoryStorage({ authToken: 't' }) },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText('Signed in as Ada (returning user)'),
    ).toBeVisible();
  },
};

export const NewUser: Story = {
  args: {
    adapter: fakeAuthAdapter({ me: async () => ({ user: newUser }) }),
    storage: memoryStorage({ authToken: 't' }),
  },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText('Signed in as Ada (new user)'),
    ).toBeVisible();
  },
};

export const Guest: Story = {
  args: { storage: memoryStorage() },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('Guest (guest-user)')).toBeVisible();
  },
};

export const SignedOut: Story = {
  args: { storage: memoryStorage({ authToken: 't' }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Sign Out' }));
    await findToast('Signed out successfully');
    await expect(canvas.getByText('Guest (guest-user)')).toBeVisible();
  },
};
