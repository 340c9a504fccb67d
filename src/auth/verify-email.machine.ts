import { assign, emit, fromPromise, setup } from 'xstate';
import { AUTH } from '../lib/limits';
import { ApiError } from '../lib/http-errors';
import {
  AUTH_MESSAGES,
  RESET_VERIFY_MESSAGES,
  SIGN_IN_MESSAGES,
  resendRetryNote,
} from '../lib/messages';
import { validateResend } from '../lib/validation';
import type { AuthAdapter, AuthResponse, ResendResponse } from './auth.adapter';
import { serverMessage, unlessAborted, type AuthNotice } from './notices';
import { verifyEmailOnce } from './verify-email.once';
import { stubActor } from '../lib/stub-actor';

export type VerifyEmailInput = {
  /** The `email` query parameter: the address a link was sent to. */
  email?: string | null | undefined;
  /** The `token` query parameter of the emailed link. */
  token?: string | null | undefined;
};

export type VerifyEmailContext = {
  email: string | null;
  token: string | null;
  /** The refresh token that came with it, handed to the session beside the access token. */
  refreshToken: string | null;
  /** The resend's failure, shown in red. */
  error: string | null;
  /** The resend's answer: sent, or when another mail can be asked for (the server's cooldown). */
  sentNote: string | null;
  /** Where to go once signed in: onboarding until it is completed. */
  next: string;
};

export type VerifyEmailEvent = { type: 'verify.resend' };

/**
 * The verify-email page (spec section 4, "Verify email"): resending is `idle`, `loading`, `success`
 * (its banner clears after 3 s) or `error`. With `?token=` the page first `verifying`s the link and
 * signs the user in, or sends them to /auth (DECISIONS.md). The link is checked once per page
 * however often the page mounts (`verify-email.once.ts`), and a stopped page hears no answer.
 */
export const verifyEmailMachine = setup({
  types: {
    context: {} as VerifyEmailContext,
    events: {} as VerifyEmailEvent,
    input: {} as VerifyEmailInput,
    emitted: {} as AuthNotice,
  },
  actors: {
    resendVerification: stubActor<ResendResponse, { email: string }>('resendVerification'),
    verifyEmail: stubActor<AuthResponse, { token: string }>('verifyEmail'),
    signIn: stubActor<unknown, { token: string; refreshToken: string | null }>('signIn'),
  },
  delays: { banner: AUTH.verifyBannerMs },
  guards: {
    hasLink: ({ context }) => Boolean(context.token),
    noEmail: ({ context }) => validateResend(context.email) !== null,
  },
}).createMachine({
  id: 'verifyEmail',
  context: ({ input }) => ({
    email: input.email?.trim() || null,
    token: input.token?.trim() || null,
    refreshToken: null,
    error: null,
    sentNote: null,
    next: '/',
  }),
  initial: 'start',
  on: {
    'verify.resend': [
      {
        guard: 'noEmail',
        target: '.error',
        actions: assign({ error: RESET_VERIFY_MESSAGES.emailNotFound }),
      },
      { target: '.loading' },
    ],
  },
  states: {
    start: { always: [{ guard: 'hasLink', target: 'verifying' }, { target: 'idle' }] },
    idle: {},
    loading: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        src: 'resendVerification',
        input: ({ context }) => ({ email: context.email ?? '' }),
        onDone: {
          target: 'success',
          actions: assign({
            // A server that states its cooldown is quoted (it may have sent nothing); else the spec banner.
            sentNote: ({ event }) =>
              event.output.retry_after === undefined
                ? null
                : [event.output.message, resendRetryNote(event.output.retry_after)]
                    .filter(Boolean)
                    .join(' '),
          }),
        },
        onError: {
          target: 'error',
          actions: assign({
            error: ({ event }) => serverMessage(event.error, RESET_VERIFY_MESSAGES.resendFailed),
          }),
        },
      },
      // One resend at a time.
      on: { 'verify.resend': {} },
    },
    success: { after: { banner: 'idle' } },
    error: {},
    verifying: {
      tags: ['busy'],
      on: { 'verify.resend': {} },
      initial: 'checking',
      states: {
        checking: {
          invoke: {
            src: 'verifyEmail',
            input: ({ context }) => ({ token: context.token ?? '' }),
            onDone: {
              target: 'signingIn',
              actions: assign(({ event }) => ({
                token: event.output.access_token,
                refreshToken: event.output.refresh_token ?? null,
                next: event.output.user.onboarding_completed ? '/' : '/onboarding',
              })),
            },
            onError: [
              {
                // The link did its work before (another browser): the account is verified.
                guard: ({ event }) => event.error instanceof ApiError && event.error.status === 409,
                target: '#verifyEmail.alreadyVerified',
              },
              {
                target: '#verifyEmail.linkFailed',
                actions: emit(({ event }) => ({
                  type: 'toast.error',
                  message: serverMessage(event.error, AUTH_MESSAGES.verifyLinkFailed),
                })),
              },
            ],
          },
        },
        signingIn: {
          invoke: {
            src: 'signIn',
            input: ({ context }) => ({
              token: context.token ?? '',
              refreshToken: context.refreshToken,
            }),
            onDone: {
              target: '#verifyEmail.verified',
              actions: [
                emit({ type: 'toast.success', message: SIGN_IN_MESSAGES.signedIn }),
                emit(({ context }) => ({ type: 'route.navigate', path: context.next })),
              ],
            },
            onError: {
              target: '#verifyEmail.linkFailed',
              actions: emit(({ event }) => ({
                type: 'toast.error',
                message: serverMessage(event.error, AUTH_MESSAGES.verifyLinkFailed),
              })),
            },
          },
        },
      },
    },
    verified: { type: 'final' },
    /** A link opened again once the account is verified: the page offers sign-in. */
    alreadyVerified: { type: 'final' },
    linkFailed: {
      type: 'final',
      entry: emit({ type: 'route.navigate', path: '/auth' }),
    },
  },
});

/** The verify-email page's machine over `adapter`; `signIn` hands the link's token to the session. */
export function verifyEmailLogic(
  adapter: AuthAdapter,
  host: { signIn(token: string, refreshToken?: string | null): unknown },
) {
  return verifyEmailMachine.provide({
    actors: {
      resendVerification: fromPromise(({ input, signal }) =>
        adapter.resendVerification(input, { signal }),
      ),
      verifyEmail: fromPromise(({ input, signal }) =>
        verifyEmailOnce(adapter, input.token, signal),
      ),
      signIn: fromPromise(({ input, signal }) => {
        const signIn = async () => host.signIn(input.token, input.refreshToken);
        return unlessAborted(signIn(), signal);
      }),
    },
  });
}
