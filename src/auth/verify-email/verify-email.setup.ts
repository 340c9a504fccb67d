import { setup } from 'xstate';

import { AUTH } from '../../lib/limits';
import { stubActor } from '../../lib/stub-actor';
import { validateResend } from '../../lib/validation';
import {
  type Account,
  type AccountSwitchEvent,
  isOtherAccount,
  type SessionUpdateEvent,
} from '../account-switch';
import type { AuthResponse, ResendResponse } from '../auth.adapter';
import { type AuthNotice } from '../auth.notices';
import { signInStub } from '../hand-off';

export type VerifyEmailInput = {
  /** The `email` query parameter: the address a link was sent to. */
  email?: string | null | undefined;
  /** The `token` query parameter of the emailed link. */
  token?: string | null | undefined;
  /** Who is signed in on this browser now. @default nobody */
  current?: Account | null | undefined;
  /** True while the session still loads its user. @default false */
  sessionPending?: boolean | undefined;
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
  /** Who is signed in on this browser now (null: nobody). */
  current: Account | null;
  /** The session is still loading who is signed in: a verified link waits before signing in. */
  sessionPending: boolean;
  /** The account the link verified. */
  verified: Account | null;
};

export type VerifyEmailEvent = { type: 'verify.resend' } | SessionUpdateEvent | AccountSwitchEvent;

/** Types, actors (stubs until they are provided), guards and actions of `verifyEmailMachine`. */
export const verifyEmailSetup = setup({
  types: {
    context: {} as VerifyEmailContext,
    events: {} as VerifyEmailEvent,
    input: {} as VerifyEmailInput,
    emitted: {} as AuthNotice,
  },
  actors: {
    resendVerification: stubActor<ResendResponse, { email: string }>('resendVerification'),
    verifyEmail: stubActor<AuthResponse, { token: string }>('verifyEmail'),
    signIn: signInStub,
    discard: stubActor<unknown, { refreshToken: string | null }>('discard'),
  },
  delays: { banner: AUTH.verifyBannerMs },
  guards: {
    hasLink: ({ context }) => Boolean(context.token),
    noEmail: ({ context }) => validateResend(context.email) !== null,
    otherAccount: ({ context }) =>
      !context.sessionPending && isOtherAccount(context.current, context.verified),
    sessionKnown: ({ context }) => !context.sessionPending,
  },
});
