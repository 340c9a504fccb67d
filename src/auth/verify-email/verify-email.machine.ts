import { assign, emit, fromPromise } from 'xstate';

import { ApiError } from '../../lib/http-errors';
import { serverMessage } from '../../lib/http-errors';
import {
  AUTH_MESSAGES,
  resendRetryNote,
  RESET_VERIFY_MESSAGES,
  SIGN_IN_MESSAGES,
} from '../../lib/messages';
import type { AuthAdapter } from '../auth.adapter';
import { handOff, heldTokens, type SignInHost } from '../hand-off';
import { verifyEmailOnce } from './verify-email.once';
import { verifyEmailSetup } from './verify-email.setup';

/**
 * The verify-email page (spec section 4, "Verify email"): resending is `idle`, `loading`, `success`
 * (its banner clears after 3 s) or `error`. With `?token=` the page first `verifying`s the link and
 * signs the user in, or sends them to /auth (DECISIONS.md). The link is checked once per page
 * however often the page mounts (`verify-email.once.ts`), and a stopped page hears no answer.
 * A link of another account than the one signed in (issue 22 #1) verifies without signing in:
 * `verifiedElsewhere` says so, keeps the session, and offers to switch.
 */
export const verifyEmailMachine = verifyEmailSetup.createMachine({
  id: 'verifyEmail',
  context: ({ input }) => ({
    email: input.email?.trim() || null,
    token: input.token?.trim() || null,
    refreshToken: null,
    error: null,
    sentNote: null,
    next: '/',
    current: input.current ?? null,
    sessionPending: input.sessionPending ?? false,
    verified: null,
  }),
  initial: 'start',
  on: {
    'session.update': {
      actions: assign(({ event }) => ({ current: event.current, sessionPending: event.pending })),
    },
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
              target: 'deciding',
              actions: assign(({ event }) => ({
                token: event.output.access_token,
                refreshToken: event.output.refresh_token ?? null,
                next: event.output.user.onboarding_completed ? '/' : '/onboarding',
                verified: event.output.user,
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
                  type: 'notify',
                  tone: 'error',
                  message: serverMessage(event.error, AUTH_MESSAGES.verifyLinkFailed),
                })),
              },
            ],
          },
        },
        // Verified: sign in, unless someone else is signed in here (or the session still loads).
        deciding: {
          always: [
            { guard: 'otherAccount', target: '#verifyEmail.verifiedElsewhere' },
            { guard: 'sessionKnown', target: 'signingIn' },
          ],
        },
        signingIn: {
          invoke: {
            src: 'signIn',
            input: heldTokens,
            onDone: {
              target: '#verifyEmail.verified',
              actions: [
                emit({ type: 'notify', tone: 'success', message: SIGN_IN_MESSAGES.signedIn }),
                emit(({ context }) => ({ type: 'route.navigate', path: context.next })),
              ],
            },
            onError: {
              target: '#verifyEmail.linkFailed',
              actions: emit(({ event }) => ({
                type: 'notify',
                tone: 'error',
                message: serverMessage(event.error, AUTH_MESSAGES.verifyLinkFailed),
              })),
            },
          },
        },
      },
    },
    verified: { type: 'final' },
    /** The link verified another account than the one signed in: the session stays; switch? */
    verifiedElsewhere: {
      on: {
        'verify.resend': {},
        'switch.keep': 'keeping',
        'switch.confirm': '#verifyEmail.verifying.signingIn',
      },
    },
    keeping: {
      tags: ['busy'],
      on: { 'verify.resend': {} },
      // The link's own sign-in is signed out on the server; the current session is not touched.
      invoke: {
        src: 'discard',
        input: ({ context }) => ({ refreshToken: context.refreshToken }),
        onDone: 'kept',
        onError: 'kept',
      },
    },
    kept: { type: 'final', entry: emit({ type: 'route.navigate', path: '/' }) },
    /** A link opened again once the account is verified: the page offers sign-in. */
    alreadyVerified: { type: 'final' },
    linkFailed: {
      type: 'final',
      entry: emit({ type: 'route.navigate', path: '/auth' }),
    },
  },
});

/**
 * The verify-email page's machine over `adapter`; `signIn` hands the link's token to the session,
 * `discard` signs out the link's sign-in when the student stays in the current account.
 */
export function verifyEmailLogic(adapter: AuthAdapter, host: SignInHost) {
  return verifyEmailMachine.provide({
    actors: {
      resendVerification: fromPromise(({ input, signal }) =>
        adapter.resendVerification(input, { signal }),
      ),
      verifyEmail: fromPromise(({ input, signal }) =>
        verifyEmailOnce(adapter, input.token, signal),
      ),
      signIn: handOff(host, { whileRunning: true }),
      discard: fromPromise(async ({ input, signal }) =>
        input.refreshToken
          ? adapter.logout({ refresh_token: input.refreshToken }, { signal })
          : undefined,
      ),
    },
  });
}
