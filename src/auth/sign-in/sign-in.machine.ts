import { assertEvent, assign, emit, fromPromise } from 'xstate';

import { serverMessage } from '../../lib/http-errors';
import {
  OAUTH_MESSAGES,
  resendRetryNote,
  RESET_VERIFY_MESSAGES,
  SIGN_IN_MESSAGES,
  VALIDATION_MESSAGES,
} from '../../lib/messages';
import { validateSignUpFields } from '../../lib/validation';
import type { AuthAdapter } from '../auth.adapter';
import { type AuthNotice } from '../auth.notices';
import type { SignInContext, SignInEvent } from '../auth.types';
import { handOff, heldTokens, type SignInHost } from '../hand-off';
import { signInErrorMessage } from './sign-in.errors';
import { noUnverified, signInSetup } from './sign-in.setup';

/**
 * The sign-in screen (spec section 2, "Auth screen"): the three `choices`, the `email` form (sign in or
 * sign up, `submitting` while the call runs) and its `forgotPassword` sub-view.
 */
export const signInMachine = signInSetup.createMachine({
  id: 'signIn',
  context: ({ input }) => ({
    mode: input?.mode ?? 'signIn',
    direct: input?.mode !== undefined,
    fieldErrors: {},
    unverifiedEmail: null,
    resendNote: null,
    attemptedEmail: '',
    resetError: null,
    token: null,
    refreshToken: null,
  }),
  // /login and /register open the email form directly (DECISIONS.md).
  initial: 'start',
  states: {
    start: {
      always: [{ guard: ({ context }) => context.direct, target: 'email' }, { target: 'choices' }],
    },
    choices: {
      on: {
        'choice.email': 'email',
        'choice.google': 'google',
      },
    },
    google: {
      tags: ['busy'],
      invoke: {
        src: 'googleLoginUrl',
        onDone: { actions: emit(({ event }) => ({ type: 'page.redirect', url: event.output })) },
        onError: { target: 'choices', actions: emit(googleFailed) },
      },
      on: { 'google.failed': { target: 'choices', actions: emit(googleFailed) } },
    },
    email: {
      initial: 'editing',
      on: {
        'choice.back': { target: 'choices', actions: assign({ fieldErrors: {}, ...noUnverified }) },
        'mode.toggle': {
          target: '.editing',
          actions: assign({
            mode: ({ context }) => (context.mode === 'signIn' ? 'signUp' : 'signIn'),
            fieldErrors: {},
            ...noUnverified,
          }),
        },
      },
      states: {
        editing: {
          on: {
            'form.submit': [
              { guard: 'signUpInvalid', actions: assign({ fieldErrors: signUpErrors }) },
              { guard: 'signingUp', target: 'registering', actions: assign({ fieldErrors: {} }) },
              {
                target: 'loggingIn',
                actions: assign({
                  fieldErrors: {},
                  ...noUnverified,
                  attemptedEmail: ({ event }) => event.fields.email.trim(),
                }),
              },
            ],
            'verify.resend': {
              guard: ({ context }) => context.unverifiedEmail !== null,
              target: 'resending',
            },
            'forgot.open': {
              guard: ({ context }) => context.mode === 'signIn',
              target: '#signIn.forgotPassword',
            },
          },
        },
        loggingIn: {
          tags: ['busy'],
          invoke: {
            src: 'login',
            input: ({ event }) => {
              assertEvent(event, 'form.submit');
              return { email: event.fields.email.trim(), password: event.fields.password };
            },
            onDone: {
              target: 'signingIn',
              actions: assign({
                token: ({ event }) => event.output.access_token,
                refreshToken: ({ event }) => event.output.refresh_token ?? null,
              }),
            },
            onError: [
              {
                // Shown in the form with a Resend action, not as a passing toast.
                guard: ({ event }) =>
                  signInErrorMessage(event.error, 'signIn') === SIGN_IN_MESSAGES.notVerified,
                target: 'editing',
                actions: assign({ unverifiedEmail: ({ context }) => context.attemptedEmail }),
              },
              {
                target: 'editing',
                actions: emit(({ event }) => ({
                  type: 'notify',
                  tone: 'error',
                  message: signInErrorMessage(event.error, 'signIn'),
                })),
              },
            ],
          },
        },
        resending: {
          tags: ['busy'],
          invoke: {
            src: 'resendVerification',
            input: ({ context }) => ({ email: context.unverifiedEmail ?? '' }),
            onDone: {
              target: 'editing',
              actions: assign({
                resendNote: ({ event }) =>
                  [event.output.message, resendRetryNote(event.output.retry_after ?? 0)]
                    .filter(Boolean)
                    .join(' '),
              }),
            },
            onError: {
              target: 'editing',
              actions: assign({
                resendNote: ({ event }) =>
                  serverMessage(event.error, RESET_VERIFY_MESSAGES.resendFailed),
              }),
            },
          },
        },
        signingIn: {
          tags: ['busy'],
          invoke: {
            src: 'signIn',
            input: heldTokens,
            onDone: {
              target: '#signIn.signedIn',
              // Earlier failures' toasts go: 'Invalid email or password' beside 'Signed in' confuses.
              actions: [
                emit({ type: 'toast.dismiss' }),
                emit({ type: 'notify', tone: 'success', message: SIGN_IN_MESSAGES.signedIn }),
              ],
            },
            onError: {
              target: 'editing',
              actions: [
                assign({ token: null, refreshToken: null }),
                emit(({ event }) => ({
                  type: 'notify',
                  tone: 'error',
                  message: signInErrorMessage(event.error, 'signIn'),
                })),
              ],
            },
          },
        },
        registering: {
          tags: ['busy'],
          invoke: {
            src: 'register',
            input: ({ event }) => {
              assertEvent(event, 'form.submit');
              const { name, email, password } = event.fields;
              // The screen has no checkboxes: both agreements are always sent as given (spec section 5).
              return {
                display_name: name.trim(),
                email: email.trim(),
                password,
                agreed_to_terms: true,
                agreed_to_privacy: true,
              };
            },
            onDone: {
              target: '#signIn.registered',
              actions: emit(({ event }) => ({
                type: 'route.navigate',
                path: `/verify-email?email=${encodeURIComponent(event.output.user.email)}`,
              })),
            },
            onError: {
              target: 'editing',
              actions: emit(({ event }) => ({
                type: 'notify',
                tone: 'error',
                message: signInErrorMessage(event.error, 'signUp'),
              })),
            },
          },
        },
      },
    },
    forgotPassword: {
      initial: 'idle',
      entry: assign({ resetError: null }),
      on: {
        'forgot.back': 'email',
        'forgot.submit': [
          { guard: 'resetSending' },
          {
            guard: 'emailInvalid',
            target: '.idle',
            actions: assign({ resetError: VALIDATION_MESSAGES.emailInvalid }),
          },
          { target: '.sending', actions: assign({ resetError: null }) },
        ],
      },
      states: {
        idle: {},
        sending: {
          tags: ['busy'],
          invoke: {
            src: 'requestPasswordReset',
            input: ({ event }) => {
              assertEvent(event, 'forgot.submit');
              return { email: event.email.trim() };
            },
            onDone: {
              target: 'sent',
              actions: emit({
                type: 'notify',
                tone: 'success',
                message: RESET_VERIFY_MESSAGES.resetEmailSent,
              }),
            },
            onError: {
              target: 'failed',
              actions: assign({ resetError: RESET_VERIFY_MESSAGES.resetEmailFailed }),
            },
          },
        },
        sent: {},
        failed: {},
      },
    },
    signedIn: { type: 'final' },
    registered: { type: 'final' },
  },
});

/** The sign-in screen's machine over `adapter`; `signIn` hands a token to the session. */
export function signInLogic(adapter: AuthAdapter, host: SignInHost) {
  return signInMachine.provide({
    actors: {
      login: fromPromise(({ input, signal }) => adapter.login(input, { signal })),
      register: fromPromise(({ input, signal }) => adapter.register(input, { signal })),
      requestPasswordReset: fromPromise(({ input, signal }) =>
        adapter.requestPasswordReset(input, { signal }),
      ),
      resendVerification: fromPromise(({ input, signal }) =>
        adapter.resendVerification(input, { signal }),
      ),
      googleLoginUrl: fromPromise(async () => adapter.googleLoginUrl()),
      signIn: handOff(host),
    },
  });
}

function signUpErrors({ event }: { event: SignInEvent }): SignInContext['fieldErrors'] {
  assertEvent(event, 'form.submit');
  return validateSignUpFields(event.fields);
}

function googleFailed(): AuthNotice {
  return { type: 'notify', tone: 'error', message: OAUTH_MESSAGES.googleFailed };
}
