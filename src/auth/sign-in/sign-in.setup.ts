import { assertEvent, setup, stateIn } from 'xstate';

import { stubActor } from '../../lib/stub-actor';
import { isValidEmail, validateSignUpFields } from '../../lib/validation';
import type {
  AuthResponse,
  LoginRequest,
  RegisterRequest,
  RegisterResponse,
  ResendResponse,
} from '../auth.adapter';
import { type AuthNotice } from '../auth.notices';
import type { SignInContext, SignInEvent, SignInInput } from '../auth.types';
import { signInStub } from '../hand-off';

export const noUnverified = { unverifiedEmail: null, resendNote: null };

/** Types, actors (stubs until they are provided), guards and actions of `signInMachine`. */
export const signInSetup = setup({
  types: {
    context: {} as SignInContext,
    events: {} as SignInEvent,
    input: {} as SignInInput,
    emitted: {} as AuthNotice,
  },
  actors: {
    login: stubActor<AuthResponse, LoginRequest>('login'),
    register: stubActor<RegisterResponse, RegisterRequest>('register'),
    requestPasswordReset: stubActor<unknown, { email: string }>('requestPasswordReset'),
    resendVerification: stubActor<ResendResponse, { email: string }>('resendVerification'),
    googleLoginUrl: stubActor<string>('googleLoginUrl'),
    /** Hands the token to the session; settles once the user is loaded. */
    signIn: signInStub,
  },
  guards: {
    signUpInvalid: ({ context, event }) => {
      assertEvent(event, 'form.submit');
      return (
        context.mode === 'signUp' && Object.keys(validateSignUpFields(event.fields)).length > 0
      );
    },
    signingUp: ({ context }) => context.mode === 'signUp',
    resetSending: stateIn('#signIn.forgotPassword.sending'),
    emailInvalid: ({ event }) => {
      assertEvent(event, 'forgot.submit');
      return !isValidEmail(event.email);
    },
  },
});
