import { setup } from 'xstate';

import { AUTH } from '../../lib/limits';
import { stubActor } from '../../lib/stub-actor';
import { isOtherAccount } from '../account-switch';
import type { AuthResponse } from '../auth.adapter';
import type { AuthNotice } from '../auth.notices';
import type { OAuthCallbackContext, OAuthCallbackEvent, OAuthCallbackInput } from '../auth.types';
import { signInStub } from '../hand-off';

/** Types, actors (stubs until they are provided), guards and actions of `oauthCallbackMachine`. */
export const oauthCallbackSetup = setup({
  types: {
    context: {} as OAuthCallbackContext,
    input: {} as OAuthCallbackInput,
    events: {} as OAuthCallbackEvent,
    emitted: {} as AuthNotice,
  },
  actors: {
    exchange: stubActor<AuthResponse, { code: string; state: string }>('exchange'),
    signIn: signInStub,
    discard: stubActor<unknown, { refreshToken: string | null }>('discard'),
  },
  guards: {
    otherAccount: ({ context }) =>
      !context.sessionPending && isOtherAccount(context.current, context.incoming?.user),
    sessionKnown: ({ context }) => !context.sessionPending,
  },
  delays: { redirect: AUTH.oauthErrorRedirectMs },
});
