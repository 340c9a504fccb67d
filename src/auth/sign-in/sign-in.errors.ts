import { ApiError } from '../../lib/http-errors';
import { AUTH_MESSAGES, SIGN_IN_MESSAGES, SIGN_UP_MESSAGES } from '../../lib/messages';
import type { AuthMode } from '../auth.types';

/**
 * The toast for a failed sign-in or sign-up (spec section 8, "Sign-in toasts"), chosen by the
 * server's words: anything about verification first (the server's 403 'Email not verified'), then a
 * rejected pair (401), a taken email (409), and errors that name a field; else the error's own text.
 */
export function signInErrorMessage(error: unknown, mode: AuthMode): string {
  const status = error instanceof ApiError ? error.status : undefined;
  const words = serverWords(error).toLowerCase();

  if (words.includes('verif')) return SIGN_IN_MESSAGES.notVerified;
  if (status === 401) return SIGN_IN_MESSAGES.invalidCredentials;
  if (mode === 'signUp') {
    if (
      status === 409 ||
      words.includes('already exists') ||
      words.includes('already registered')
    ) {
      return SIGN_UP_MESSAGES.emailTaken;
    }
    if (words.includes('terms') || words.includes('privacy')) return SIGN_UP_MESSAGES.acceptTerms;
    if (words.includes('name')) return SIGN_UP_MESSAGES.fullNameRequired;
  }
  if (status === 422 || status === 400) {
    if (words.includes('email')) return SIGN_IN_MESSAGES.invalidEmail;
    if (words.includes('password')) return SIGN_IN_MESSAGES.passwordTooShort;
  }
  if (error instanceof Error && error.message) return error.message;
  return AUTH_MESSAGES.somethingWentWrong;
}

/** The server's own text: `detail` (a string or FastAPI's list), else the error's message. */
function serverWords(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : '';
  const { detail } = error;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return `${error.message} ${JSON.stringify(detail)}`;
  return error.message;
}
