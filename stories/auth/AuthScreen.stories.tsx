import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ApiError } from 'ayah-coach';
import { AuthScreen } from 'ayah-coach/auth';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';

import { apiError, fakeAuthAdapter, never, rejects } from '../../fakes/auth';
import { clearToasts, findToast } from '../support';

const meta = {
  title: 'Auth/AuthScreen',
  component: AuthScreen,
  args: {
    adapter: fakeAuthAdapter(),
    onSignedIn: fn(),
    onNavigate: fn(),
    redirect: fn(),
    ethereum: null,
    reducedMotion: true,
  },
  beforeEach: clearToasts,
} satisfies Meta<typeof AuthScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

const STRONG = 'Str0ng!pass';

async function fill(canvasElement: HTMLElement, fields: Record<string, string>) {
  const canvas = within(canvasElement);
  for (const [label, value] of Object.entries(fields)) {
    const input = canvas.getByLabelText(label);
    await userEvent.clear(input);
    if (value) await userEvent.type(input, value);
  }
}

async function submit(canvasElement: HTMLElement, name: string) {
  await userEvent.click(within(canvasElement).getByRole('button', { name }));
}

/** The three choices: Continue with Email, Google, MetaMask (email first, the wallet last). */
export const Choices: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { level: 1, name: 'Ayah' })).toBeVisible();
    await expect(
      canvas.getByText('Your AI learning coach', { selector: '[data-slot="visually-hidden"]' }),
    ).toBeInTheDocument();
    for (const name of ['Continue with MetaMask', 'Continue with Google', 'Continue with Email']) {
      await expect(canvas.getByRole('button', { name })).toBeEnabled();
    }
  },
};

/** The tagline typed out at 80 ms a character. */
export const TaglineTyping: Story = {
  args: { reducedMotion: false },
  // The typing is the story: bench:stories counts it apart from the time to settle.
  parameters: { settle: { onPurposeMs: 22 * 80, why: 'the tagline typed at 80 ms a character' } },
  play: async ({ canvasElement }) => {
    const typed = () =>
      canvasElement.querySelector('[data-slot="tagline-typed"]')?.textContent ?? '';
    await expect(typed().length).toBeLessThan('Your AI learning coach'.length);
    await waitFor(() => expect(typed()).toBe('Your AI learning coach'), { timeout: 4000 });
  },
};

// ----- Email sign-in ---------------------------------------------------------------------------

export const SignInForm: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Continue with Email' }));
    await expect(canvas.getByRole('heading', { name: 'Sign in' })).toHaveFocus();
    await expect(canvas.getByRole('button', { name: 'Forgot password?' })).toBeVisible();
  },
};

export const SignInSubmitting: Story = {
  args: { mode: 'signIn', adapter: fakeAuthAdapter({ login: never }) },
  play: async ({ canvasElement }) => {
    await fill(canvasElement, { Email: 'ada@example.org', Password: STRONG });
    await submit(canvasElement, 'Sign in');
    await expect(within(canvasElement).getByRole('button', { name: 'Sign in' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
  },
};

export const SignedIn: Story = {
  args: { mode: 'signIn', adapter: fakeAuthAdapter() },
  play: async ({ canvasElement, args }) => {
    await fill(canvasElement, { Email: 'ada@example.org', Password: STRONG });
    await submit(canvasElement, 'Sign in');
    await findToast('Signed in successfully!');
    await expect(args.onSignedIn).toHaveBeenCalledWith('tok-fake', 'refresh-fake');
  },
};

function signInFails(error: ApiError, message: string): Story {
  return {
    args: { mode: 'signIn', adapter: fakeAuthAdapter({ login: rejects(error) }) },
    play: async ({ canvasElement }) => {
      await fill(canvasElement, { Email: 'ada@example.org', Password: 'wrong-password' });
      await submit(canvasElement, 'Sign in');
      await findToast(message, 'alert');
    },
  };
}

export const InvalidCredentials = signInFails(
  apiError(401, 'Invalid email or password'),
  'Invalid email or password. Please check your credentials.',
);
/** Unverified: the spec's message stays in the form, with a Resend action, instead of a toast. */
export const NotVerified: Story = {
  args: {
    mode: 'signIn',
    adapter: fakeAuthAdapter({ login: rejects(apiError(403, 'Email not verified')) }),
  },
  play: async ({ canvasElement }) => {
    await fill(canvasElement, { Email: 'ada@example.org', Password: 'Blue-Kettle-42' });
    await submit(canvasElement, 'Sign in');
    const notice = await within(canvasElement).findByRole('alert');
    await expect(notice).toHaveTextContent(
      'Your account has not been email verified. Please check your email and verify to continue.',
    );
    await expect(
      within(notice).getByRole('button', { name: 'Resend verification email' }),
    ).toBeEnabled();
  },
};
export const InvalidEmailFromServer = signInFails(
  apiError(422, [{ loc: ['body', 'email'], msg: 'value is not a valid email address' }]),
  'Please enter a valid email address.',
);
export const PasswordTooShortFromServer = signInFails(
  apiError(422, [{ loc: ['body', 'password'], msg: 'too short' }]),
  'Password must be at least 8 characters long.',
);
export const ServerError = signInFails(apiError(503), 'Server error. Please try again later.');

// ----- Sign-up ---------------------------------------------------------------------------------

export const SignUpForm: Story = {
  args: { mode: 'signUp' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvasElement, { Password: 'abc1' });
    await expect(canvas.getByText('Password strength:', { exact: false })).toHaveTextContent(
      'Password strength: Weak',
    );
    await expect(canvas.getByRole('list', { name: 'Password requirements' })).toBeVisible();
  },
};

function signUpInvalid(fields: Record<string, string>, label: string, message: string): Story {
  return {
    args: { mode: 'signUp' },
    play: async ({ canvasElement, args }) => {
      await fill(canvasElement, fields);
      await submit(canvasElement, 'Create account');
      const input = within(canvasElement).getByLabelText(label);
      await expect(input).toBeInvalid();
      await expect(input).toHaveAccessibleDescription(expect.stringContaining(message));
      await expect(args.onNavigate).not.toHaveBeenCalled();
    },
  };
}

const valid = { 'Full name': 'Ada Lovelace', Email: 'ada@example.org', Password: STRONG };

export const SignUpNameRequired = signUpInvalid(
  { ...valid, 'Full name': '' },
  'Full name',
  'Name is required',
);
export const SignUpEmailRequired = signUpInvalid(
  { ...valid, Email: '' },
  'Email',
  'Email is required',
);
export const SignUpEmailInvalid = signUpInvalid(
  { ...valid, Email: 'ada@school' },
  'Email',
  'Please enter a valid email address',
);
export const SignUpPasswordRequired = signUpInvalid(
  { ...valid, Password: '' },
  'Password',
  'Password is required',
);
export const SignUpPasswordWeak = signUpInvalid(
  { ...valid, Password: 'password' },
  'Password',
  'Password does not meet requirements: At least one uppercase letter, At least one number, At least one special character',
);

export const SignUpSubmitting: Story = {
  args: { mode: 'signUp', adapter: fakeAuthAdapter({ register: never }) },
  play: async ({ canvasElement }) => {
    await fill(canvasElement, valid);
    await submit(canvasElement, 'Create account');
    await expect(
      within(canvasElement).getByRole('button', { name: 'Create account' }),
    ).toHaveAttribute('aria-busy', 'true');
  },
};

export const SignedUp: Story = {
  args: { mode: 'signUp', adapter: fakeAuthAdapter() },
  play: async ({ canvasElement, args }) => {
    await fill(canvasElement, valid);
    await submit(canvasElement, 'Create account');
    await waitFor(() =>
      expect(args.onNavigate).toHaveBeenCalledWith('/verify-email?email=ada%40example.org'),
    );
  },
};

function signUpFails(error: ApiError, message: string): Story {
  return {
    args: { mode: 'signUp', adapter: fakeAuthAdapter({ register: rejects(error) }) },
    play: async ({ canvasElement }) => {
      await fill(canvasElement, valid);
      await submit(canvasElement, 'Create account');
      await findToast(message, 'alert');
    },
  };
}

export const EmailTaken = signUpFails(
  apiError(409, 'An account with this email already exists'),
  'An account with this email already exists. Please sign in instead.',
);
export const FullNameRequiredFromServer = signUpFails(
  apiError(422, 'display_name: field required'),
  'Please enter your full name.',
);
export const TermsNotAccepted = signUpFails(
  apiError(422, 'agreed_to_terms: must be true'),
  'Please accept the terms and privacy policy.',
);

// ----- Forgot password -------------------------------------------------------------------------

async function openForgot(canvasElement: HTMLElement) {
  await userEvent.click(within(canvasElement).getByRole('button', { name: 'Forgot password?' }));
  await expect(
    within(canvasElement).getByRole('heading', { name: 'Reset your password' }),
  ).toHaveFocus();
}

export const ForgotPassword: Story = {
  args: { mode: 'signIn' },
  play: async ({ canvasElement }) => openForgot(canvasElement),
};

export const ForgotPasswordInvalidEmail: Story = {
  args: { mode: 'signIn' },
  play: async ({ canvasElement }) => {
    await openForgot(canvasElement);
    await fill(canvasElement, { Email: 'not-an-address' });
    await submit(canvasElement, 'Send reset link');
    await expect(within(canvasElement).getByLabelText('Email')).toHaveAccessibleDescription(
      'Please enter a valid email address',
    );
  },
};

export const ForgotPasswordSending: Story = {
  args: { mode: 'signIn', adapter: fakeAuthAdapter({ requestPasswordReset: never }) },
  play: async ({ canvasElement }) => {
    await openForgot(canvasElement);
    await fill(canvasElement, { Email: 'ada@example.org' });
    await submit(canvasElement, 'Send reset link');
    await expect(
      within(canvasElement).getByRole('button', { name: 'Send reset link' }),
    ).toHaveAttribute('aria-busy', 'true');
  },
};

export const ForgotPasswordSent: Story = {
  args: { mode: 'signIn' },
  play: async ({ canvasElement }) => {
    await openForgot(canvasElement);
    await fill(canvasElement, { Email: 'ada@example.org' });
    await submit(canvasElement, 'Send reset link');
    await findToast('Password reset email sent!');
    await expect(
      within(canvasElement).getByText('Check your inbox for the link to reset your password.'),
    ).toBeVisible();
  },
};

export const ForgotPasswordFailed: Story = {
  args: {
    mode: 'signIn',
    adapter: fakeAuthAdapter({ requestPasswordReset: rejects(apiError(500)) }),
  },
  play: async ({ canvasElement }) => {
    await openForgot(canvasElement);
    await fill(canvasElement, { Email: 'ada@example.org' });
    await submit(canvasElement, 'Send reset link');
    await expect(
      await within(canvasElement).findByText('Failed to send reset email. Please try again.'),
    ).toHaveAttribute('role', 'alert');
  },
};

// ----- Google ----------------------------------------------------------------------------------

export const GoogleRedirect: Story = {
  play: async ({ canvasElement, args }) => {
    await submit(canvasElement, 'Continue with Google');
    await waitFor(() =>
      expect(args.redirect).toHaveBeenCalledWith(
        'https://api.example.org/api/v1/auth/google/login',
      ),
    );
  },
};

export const GoogleFailed: Story = {
  args: {
    redirect: fn(() => {
      throw new Error('Navigation blocked');
    }),
  },
  play: async ({ canvasElement }) => {
    await submit(canvasElement, 'Continue with Google');
    await findToast('Failed to sign in with Google. Please try again.', 'alert');
  },
};
