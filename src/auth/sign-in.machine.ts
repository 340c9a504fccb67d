import { assertEvent, assign, emit, fromPromise, setup, stateIn } from 'xstate';
import {
  OAUTH_MESSAGES,
  RESET_VERIFY_MESSAGES,
  SIGN_IN_MESSAGES,
  VALIDATION_MESSAGES,
} from '../lib/messages';
import { isValidEmail, validateSignUp } from '../lib/validation';
import type {
  AuthAdapter,
  AuthResponse,
  LoginRequest,
  RegisterRequest,
  RegisterResponse,
} from './auth.adapter';
import { notProvided, type AuthNotice } from './notices';
import { signInErrorMessage, type AuthMode } from './sign-in.errors';

export type { AuthMode };

/** The email form's fields, sent with `form.submit`. */
export type SignInFields = { name: string; email: string; password: string };

export type SignUpField = keyof SignInFields;

export type SignInContext = {
  mode: AuthMode;
  /** The sign-up validation error of section 5, and the field it belongs to. */
  fieldError: { field: SignUpField; message: string } | null;
  /** The forgot-password form's error, shown under its email field. */
  resetError: string | null;
  /** The token of a successful login, between the login and the session taking it. */
  token: string | null;
  /** The refresh token that came with it, handed to the session beside the access token. */
  refreshToken: string | null;
  /** Opened as /login or /register: straight to the email form. */
  direct: boolean;
};

export type SignInEvent =
  | { type: 'choice.email' }
  | { type: 'choice.google' }
  | { type: 'choice.back' }
  | { type: 'mode.toggle' }
  | { type: 'form.submit'; fields: SignInFields }
  | { type: 'forgot.open' }
  | { type: 'forgot.submit'; email: string }
  | { type: 'forgot.back' }
  /** The browser refused to leave for Google. */
  | { type: 'google.failed' };

export type SignInInput = { mode?: AuthMode | undefined } | undefined;

/**
 * The sign-in screen (spec section 2, "Auth screen"): the three `choices`, the `email` form (sign in or
 * sign up, `submitting` while the call runs) and its `forgotPassword` sub-view.
 */
export const signInMachine = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
    input: {} as SignInInput,
    emitted: {} as AuthNotice,
  },
  actors: {
    login: notProvided<AuthResponse, LoginRequest>('login'),
    register: notProvided<RegisterResponse, RegisterRequest>('register'),
    requestPasswordReset: notProvided<unknown, { email: string }>('requestPasswordReset'),
    googleLoginUrl: notProvided<string>('googleLoginUrl'),
    /** Hands the token to the session; settles once the user is loaded. */
    signIn: notProvided<unknown, { token: string; refreshToken: string | null }>('signIn'),
  },
  guards: {
    signUpInvalid: ({ context, event }) => {
      assertEvent(event, 'form.submit');
      return context.mode === 'signUp' && validateSignUp(event.fields) !== null;
    },
    signingUp: ({ context }) => context.mode === 'signUp',
    resetSending: stateIn('#signIn.forgotPassword.sending'),
    emailInvalid: ({ event }) => {
      assertEvent(event, 'forgot.submit');
      return !isValidEmail(event.email);
    },
  },
}).createMachine({
  id: 'signIn',
  context: ({ input }) => ({
    mode: input?.mode ?? 'signIn',
    direct: input?.mode !== undefined,
    fieldError: null,
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
        'choice.back': { target: 'choices', actions: assign({ fieldError: null }) },
        'mode.toggle': {
          target: '.editing',
          actions: assign({
            mode: ({ context }) => (context.mode === 'signIn' ? 'signUp' : 'signIn'),
            fieldError: null,
          }),
        },
      },
      states: {
        editing: {
          on: {
            'form.submit': [
              { guard: 'signUpInvalid', actions: assign({ fieldError: signUpError }) },
              { guard: 'signingUp', target: 'registering', actions: assign({ fieldError: null }) },
              { target: 'loggingIn', actions: assign({ fieldError: null }) },
            ],
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
            onError: {
              target: 'editing',
              actions: emit(({ event }) => ({
                type: 'toast.error',
                message: signInErrorMessage(event.error, 'signIn'),
              })),
            },
          },
        },
        signingIn: {
          tags: ['busy'],
          invoke: {
            src: 'signIn',
            input: ({ context }) => ({
              token: context.token ?? '',
              refreshToken: context.refreshToken,
            }),
            onDone: {
              target: '#signIn.signedIn',
              actions: emit({ type: 'toast.success', message: SIGN_IN_MESSAGES.signedIn }),
            },
            onError: {
              target: 'editing',
              actions: [
                assign({ token: null, refreshToken: null }),
                emit(({ event }) => ({
                  type: 'toast.error',
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
                type: 'toast.error',
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
                type: 'toast.success',
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
export function signInLogic(
  adapter: AuthAdapter,
  host: { signIn(token: string, refreshToken?: string | null): unknown },
) {
  return signInMachine.provide({
    actors: {
      login: fromPromise(({ input, signal }) => adapter.login(input, { signal })),
      register: fromPromise(({ input, signal }) => adapter.register(input, { signal })),
      requestPasswordReset: fromPromise(({ input, signal }) =>
        adapter.requestPasswordReset(input, { signal }),
      ),
      googleLoginUrl: fromPromise(async () => adapter.googleLoginUrl()),
      signIn: fromPromise(async ({ input }) => host.signIn(input.token, input.refreshToken)),
    },
  });
}

function signUpError({ event }: { event: SignInEvent }): SignInContext['fieldError'] {
  assertEvent(event, 'form.submit');
  const message = validateSignUp(event.fields);
  if (!message) return null;
  return { field: fieldOf(message), message };
}

function fieldOf(message: string): SignUpField {
  if (message === VALIDATION_MESSAGES.nameRequired) return 'name';
  if (
    message === VALIDATION_MESSAGES.emailRequired ||
    message === VALIDATION_MESSAGES.emailInvalid
  ) {
    return 'email';
  }
  return 'password';
}

function googleFailed(): AuthNotice {
  return { type: 'toast.error', message: OAUTH_MESSAGES.googleFailed };
}
