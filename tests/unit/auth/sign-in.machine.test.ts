import { describe, expect, it } from 'vitest';

import {
  apiError,
  authResponse,
  deferred,
  fakeAuthAdapter,
  never,
  REFRESH,
  rejects,
  TOKEN,
} from '../../../fakes/auth';
import { signInErrorMessage } from '../../../src/auth/sign-in/sign-in.errors';
import { signInLogic, signInMachine } from '../../../src/auth/sign-in/sign-in.machine';
import { ApiError } from '../../../src/lib/http-errors';
import { AUTH_MESSAGES } from '../../../src/lib/messages';
import { paths, settle, start, toasts } from './support';

const STRONG = 'Str0ng!pass';
const fields = { name: 'Ada', email: 'ada@example.org', password: STRONG };

function signIn(adapter = fakeAuthAdapter(), session: (token: string) => unknown = () => {}) {
  return start(signInLogic(adapter, { signIn: session }));
}

describe('sign-in machine: choices', () => {
  it('starts on the three choices; Continue with Email opens the form in sign-in mode', () => {
    const { actor } = signIn();
    expect(actor.getSnapshot().value).toBe('choices');
    actor.send({ type: 'choice.email' });
    expect(actor.getSnapshot().value).toEqual({ email: 'editing' });
    expect(actor.getSnapshot().context.mode).toBe('signIn');
    actor.send({ type: 'choice.back' });
    expect(actor.getSnapshot().value).toBe('choices');
  });

  it('opens straight on the form when a mode is given (/login, /register)', () => {
    const { actor } = start(signInLogic(fakeAuthAdapter(), { signIn: () => {} }), {
      input: { mode: 'signUp' },
    });
    expect(actor.getSnapshot().value).toEqual({ email: 'editing' });
    expect(actor.getSnapshot().context.mode).toBe('signUp');
  });

  it('Google asks for the login URL and emits a full-page redirect', async () => {
    const { actor, notices } = signIn();
    actor.send({ type: 'choice.google' });
    expect(actor.getSnapshot().value).toBe('google');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(notices).toContainEqual({
      type: 'page.redirect',
      url: 'https://api.example.org/api/v1/auth/google/login',
    });
  });

  it('a failed Google redirect says so and returns to the choices', async () => {
    const { actor, notices } = signIn(
      fakeAuthAdapter({
        googleLoginUrl: () => {
          throw new Error('no base URL');
        },
      }),
    );
    actor.send({ type: 'choice.google' });
    await settle(actor, 'choices');
    expect(toasts(notices)).toEqual(['error: Failed to sign in with Google. Please try again.']);

    actor.send({ type: 'choice.google' });
    actor.send({ type: 'google.failed' });
    expect(actor.getSnapshot().value).toBe('choices');
  });
});

describe('sign-in machine: email sign-in', () => {
  it('logs in, hands the token to the session, then says so', async () => {
    const login = deferred<ReturnType<typeof authResponse>>();
    const session = deferred<void>();
    const tokens: unknown[] = [];
    const adapter = fakeAuthAdapter({ login: () => login.promise });
    const { actor, notices } = signIn(adapter, (...pair: unknown[]) => {
      tokens.push(pair);
      return session.promise;
    });
    actor.send({ type: 'choice.email' });
    actor.send({ type: 'form.submit', fields: { ...fields, email: ' ada@example.org ' } });

    expect(actor.getSnapshot().value).toEqual({ email: 'loggingIn' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(adapter.calls[0]).toEqual({
      method: 'login',
      body: { email: 'ada@example.org', password: STRONG },
    });

    login.resolve(authResponse());
    await settle(actor, { email: 'signingIn' });
    // The refresh token goes with it, so the session can renew past the access token's 30 minutes.
    expect(tokens).toEqual([[TOKEN, REFRESH]]);

    session.resolve();
    await settle(actor, 'signedIn');
    expect(actor.getSnapshot().status).toBe('done');
    expect(toasts(notices)).toEqual(['success: Signed in successfully!']);
  });

  it.each([
    [
      apiError(401, 'Invalid email or password'),
      'Invalid email or password. Please check your credentials.',
    ],
    [
      apiError(422, [{ loc: ['body', 'email'], msg: 'value is not a valid email address' }]),
      'Please enter a valid email address.',
    ],
    [
      apiError(422, [
        { loc: ['body', 'password'], msg: 'String should have at least 8 characters' },
      ]),
      'Password must be at least 8 characters long.',
    ],
    [
      apiError(429, 'Too many failed sign-in attempts. Please try again later.'),
      'Too many failed sign-in attempts. Please try again later.',
    ],
    [apiError(500, 'db down'), 'Server error. Please try again later.'],
  ])('a failed login (%s) returns to the form with its toast', async (error, message) => {
    const { actor, notices } = signIn(fakeAuthAdapter({ login: rejects(error) }));
    actor.send({ type: 'choice.email' });
    actor.send({ type: 'form.submit', fields });
    await settle(actor, { email: 'editing' });
    expect(toasts(notices)).toEqual([`error: ${message}`]);
  });

  it('a session that cannot load the user returns to the form', async () => {
    const { actor, notices } = signIn(fakeAuthAdapter(), () =>
      Promise.reject(new ApiError(0, 'Network error. Please check your connection.')),
    );
    actor.send({ type: 'choice.email' });
    actor.send({ type: 'form.submit', fields });
    await settle(actor, { email: 'editing' });
    expect(toasts(notices)).toEqual(['error: Network error. Please check your connection.']);
    expect(actor.getSnapshot().context.token).toBeNull();
  });

  it('sign-in mode sends no sign-up validation', () => {
    const adapter = fakeAuthAdapter({ login: never });
    const { actor } = signIn(adapter);
    actor.send({ type: 'choice.email' });
    actor.send({ type: 'form.submit', fields: { name: '', email: 'a@b.co', password: 'x' } });
    expect(actor.getSnapshot().value).toEqual({ email: 'loggingIn' });
  });
});

describe('sign-in machine: sign-up', () => {
  function signUp(adapter = fakeAuthAdapter()) {
    const started = signIn(adapter);
    started.actor.send({ type: 'choice.email' });
    started.actor.send({ type: 'mode.toggle' });
    return started;
  }

  it('toggles between sign in and sign up', () => {
    const { actor } = signUp();
    expect(actor.getSnapshot().context.mode).toBe('signUp');
    actor.send({ type: 'mode.toggle' });
    expect(actor.getSnapshot().context.mode).toBe('signIn');
  });

  it.each([
    [{ ...fields, name: '  ' }, 'name', 'Name is required'],
    [{ ...fields, email: '' }, 'email', 'Email is required'],
    [{ ...fields, email: 'ada@' }, 'email', 'Please enter a valid email address'],
    [{ ...fields, password: '' }, 'password', 'Password is required'],
    [
      { ...fields, password: 'weakpass' },
      'password',
      'Password does not meet requirements: At least one uppercase letter, At least one number, At least one special character',
    ],
  ])('refuses %j with the section 5 message under its field', (input, field, message) => {
    const adapter = fakeAuthAdapter();
    const { actor } = signUp(adapter);
    actor.send({ type: 'form.submit', fields: input });
    expect(actor.getSnapshot().value).toEqual({ email: 'editing' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ [field]: message });
    expect(adapter.calls).toEqual([]);
  });

  it('registers with both agreements and goes on to /verify-email?email=…', async () => {
    const adapter = fakeAuthAdapter();
    const { actor, notices } = signUp(adapter);
    actor.send({
      type: 'form.submit',
      fields: { ...fields, name: ' Ada ', email: 'ada+1@example.org' },
    });
    expect(actor.getSnapshot().value).toEqual({ email: 'registering' });
    expect(adapter.calls[0]).toEqual({
      method: 'register',
      body: {
        display_name: 'Ada',
        email: 'ada+1@example.org',
        password: STRONG,
        agreed_to_terms: true,
        agreed_to_privacy: true,
      },
    });
    await settle(actor, 'registered');
    expect(paths(notices)).toEqual(['/verify-email?email=ada%2B1%40example.org']);
  });

  it.each([
    [
      apiError(409, 'An account with this email already exists'),
      'An account with this email already exists. Please sign in instead.',
    ],
    [apiError(422, 'display_name: Please enter a name'), 'Please enter your full name.'],
    [apiError(422, 'You must accept the terms'), 'Please accept the terms and privacy policy.'],
  ])('a refused sign-up (%s) toasts %s', async (error, message) => {
    const { actor, notices } = signUp(fakeAuthAdapter({ register: rejects(error) }));
    actor.send({ type: 'form.submit', fields });
    await settle(actor, { email: 'editing' });
    expect(toasts(notices)).toEqual([`error: ${message}`]);
  });

  it('a toggle clears the field error', () => {
    const { actor } = signUp();
    actor.send({ type: 'form.submit', fields: { ...fields, name: '' } });
    expect(actor.getSnapshot().context.fieldErrors).not.toEqual({});
    actor.send({ type: 'mode.toggle' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
  });
});

describe('sign-in machine: an unverified account', () => {
  it('keeps the spec message in the form (no toast) and resends to the address tried', async () => {
    const adapter = fakeAuthAdapter({
      login: rejects(apiError(403, 'Email not verified')),
      resendVerification: async () => ({ message: 'Sent.', retry_after: 60 }),
    });
    const { actor, notices } = signIn(adapter);
    actor.send({ type: 'choice.email' });
    actor.send({ type: 'form.submit', fields: { ...fields, email: ' ada@example.org ' } });
    await settle(actor, { email: 'editing' });
    expect(toasts(notices)).toEqual([]);
    expect(actor.getSnapshot().context.unverifiedEmail).toBe('ada@example.org');
    actor.send({ type: 'verify.resend' });
    expect(actor.getSnapshot().value).toEqual({ email: 'resending' });
    await settle(actor, { email: 'editing' });
    expect(actor.getSnapshot().context.resendNote).toBe(
      'Sent. You can ask for another email in 60 seconds.',
    );
    expect(adapter.calls.at(-1)).toEqual({
      method: 'resendVerification',
      body: { email: 'ada@example.org' },
    });
  });
});

describe('sign-in machine: forgot password', () => {
  function forgot(adapter = fakeAuthAdapter()) {
    const started = signIn(adapter);
    started.actor.send({ type: 'choice.email' });
    started.actor.send({ type: 'forgot.open' });
    return started;
  }

  it('opens only from sign-in mode, and goes back to the form', () => {
    const { actor } = signIn();
    actor.send({ type: 'choice.email' });
    actor.send({ type: 'mode.toggle' });
    expect(actor.getSnapshot().can({ type: 'forgot.open' })).toBe(false);
    actor.send({ type: 'mode.toggle' });
    actor.send({ type: 'forgot.open' });
    expect(actor.getSnapshot().value).toEqual({ forgotPassword: 'idle' });
    actor.send({ type: 'forgot.back' });
    expect(actor.getSnapshot().value).toEqual({ email: 'editing' });
  });

  it('refuses an invalid address without calling', () => {
    const adapter = fakeAuthAdapter();
    const { actor } = forgot(adapter);
    actor.send({ type: 'forgot.submit', email: 'nope' });
    expect(actor.getSnapshot().value).toEqual({ forgotPassword: 'idle' });
    expect(actor.getSnapshot().context.resetError).toBe('Please enter a valid email address');
    expect(adapter.calls).toEqual([]);
  });

  it('sends the reset email: sending, then sent with a toast', async () => {
    const reset = deferred<{ message: string }>();
    const adapter = fakeAuthAdapter({ requestPasswordReset: () => reset.promise });
    const { actor, notices } = forgot(adapter);
    actor.send({ type: 'forgot.submit', email: 'ada@example.org ' });
    expect(actor.getSnapshot().value).toEqual({ forgotPassword: 'sending' });
    expect(actor.getSnapshot().can({ type: 'forgot.submit', email: 'ada@example.org' })).toBe(
      false,
    );
    expect(adapter.calls[0]).toEqual({
      method: 'requestPasswordReset',
      body: { email: 'ada@example.org' },
    });

    reset.resolve({ message: 'ok' });
    await settle(actor, { forgotPassword: 'sent' });
    expect(toasts(notices)).toEqual(['success: Password reset email sent!']);
  });

  it('a failure shows the message under the field, and a retry can succeed', async () => {
    let fail = true;
    const adapter = fakeAuthAdapter({
      requestPasswordReset: async () => {
        if (fail) throw apiError(500);
        return { message: 'ok' };
      },
    });
    const { actor } = forgot(adapter);
    actor.send({ type: 'forgot.submit', email: 'ada@example.org' });
    await settle(actor, { forgotPassword: 'failed' });
    expect(actor.getSnapshot().context.resetError).toBe(
      'Failed to send reset email. Please try again.',
    );

    fail = false;
    actor.send({ type: 'forgot.submit', email: 'ada@example.org' });
    expect(actor.getSnapshot().context.resetError).toBeNull();
    await settle(actor, { forgotPassword: 'sent' });
  });
});

describe('sign-in machine without its adapter', () => {
  it('fails loudly', async () => {
    const { actor, notices } = start(signInMachine);
    actor.send({ type: 'choice.email' });
    actor.send({ type: 'form.submit', fields });
    await settle(actor, { email: 'editing' });
    expect(toasts(notices)).toEqual(['error: login must be provided']);
  });
});

describe('signInErrorMessage', () => {
  it('prefers the verification message over the 401 one', () => {
    expect(signInErrorMessage(apiError(401, 'Please verify your email'), 'signIn')).toMatch(
      /not been email verified/,
    );
  });

  it('keeps sign-up mappings to sign-up', () => {
    expect(signInErrorMessage(apiError(409, 'Conflict'), 'signIn')).toBe('Conflict');
  });

  it('falls back for a non-error', () => {
    expect(signInErrorMessage('boom', 'signIn')).toBe(AUTH_MESSAGES.somethingWentWrong);
  });
});
