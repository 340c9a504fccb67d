import { setup } from 'xstate';

import { AUTH } from '../../lib/limits';
import { stubActor } from '../../lib/stub-actor';
import { validateResend } from '../../lib/validation';
import { isOtherAccount } from '../account-switch';
import type { AuthResponse, ResendResponse } from '../auth.adapter';
import { type AuthNotice } from '../auth.notices';
import type { VerifyEmailContext, VerifyEmailEvent, VerifyEmailInput } from '../auth.types';
import { signInStub } from '../hand-off';

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
