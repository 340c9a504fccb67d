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
import { signInStub } from '../hand-off';
import { type AuthMode } from './sign-in.errors';

/** The email form's fields, sent with `form.submit`. */
export type SignInFields = { name: string; email: string; password: string };

export type SignUpField = keyof SignInFields;

export type SignInContext = {
  mode: AuthMode;
  /** The sign-up validation errors of section 5, every field's at once. */
  fieldErrors: Partial<Record<SignUpField, string>>;
  /** The address of a sign-in refused as unverified: the form offers to resend its link. */
  unverifiedEmail: string | null;
  /** The address of the sign-in under way. */
  attemptedEmail: string;
  /** The server's answer to that resend (sent, or when another can go), or its failure. */
  resendNote: string | null;
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
  | { type: 'google.failed' }
  /** Send the verification link again to the address a sign-in was refused for. */
  | { type: 'verify.resend' };

export const noUnverified = { unverifiedEmail: null, resendNote: null };

export type SignInInput = { mode?: AuthMode | undefined } | undefined;

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
