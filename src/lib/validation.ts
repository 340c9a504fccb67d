import { AVATAR } from './limits';
import { VALIDATION_MESSAGES as M } from './messages';
import { passwordError } from './password';

/**
 * A simple address pattern: something, `@`, then dot-separated labels. Deliberately loose (the
 * server and the verification email are the real check); labels exclude dots so the pattern
 * cannot backtrack, and `a@b`, `a@b.` and `a@@b.c` are refused.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** Whether `email` (surrounding spaces ignored) looks like an address. */
export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email.trim());
}

export interface SignUpFields {
  name: string;
  email: string;
  password: string;
}

/** The first sign-up error in the spec's order (name, email, password), or null. */
export function validateSignUp({ name, email, password }: SignUpFields): string | null {
  if (name.trim() === '') return M.nameRequired;
  if (email.trim() === '') return M.emailRequired;
  if (!isValidEmail(email)) return M.emailInvalid;
  // Passwords are never trimmed: a space is a legitimate special character.
  if (password === '') return M.passwordRequired;
  return passwordError(password);
}

/**
 * Every sign-up field's first error at once (same rules and words as `validateSignUp`), so a form can
 * show them all together; an empty object when the form is valid.
 */
export function validateSignUpFields({
  name,
  email,
  password,
}: SignUpFields): Partial<Record<keyof SignUpFields, string>> {
  const errors: Partial<Record<keyof SignUpFields, string>> = {};
  if (name.trim() === '') errors.name = M.nameRequired;
  if (email.trim() === '') errors.email = M.emailRequired;
  else if (!isValidEmail(email)) errors.email = M.emailInvalid;
  const passwordProblem = password === '' ? M.passwordRequired : passwordError(password);
  if (passwordProblem) errors.password = passwordProblem;
  return errors;
}

export interface ChangePasswordFields {
  current: string;
  next: string;
  confirm: string;
}

/** The first change-password error in the spec's order, or null. */
export function validateChangePassword({
  current,
  next,
  confirm,
}: ChangePasswordFields): string | null {
  if (current === '' || next === '' || confirm === '') return M.passwordFieldsRequired;
  if (next !== confirm) return M.newPasswordsDiffer;
  const weak = passwordError(next);
  if (weak) return weak;
  if (next === current) return M.newPasswordUnchanged;
  return null;
}

export interface ProfileFields {
  displayName: string;
  bio: string;
}

/** The profile-update body, in the wire's names. */
export interface ProfileUpdate {
  display_name: string;
  bio: string;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Trims the profile form and returns the body to send, or 'No changes to save' when both fields
 * are empty — or, given the saved profile, when nothing differs from it after trimming.
 */
export function validateProfile(
  fields: ProfileFields,
  previous?: Partial<ProfileFields>,
): ValidationResult<ProfileUpdate> {
  const value = { display_name: fields.displayName.trim(), bio: fields.bio.trim() };
  if (value.display_name === '' && value.bio === '')
    return { ok: false, error: M.noProfileChanges };
  if (
    previous &&
    value.display_name === (previous.displayName ?? '').trim() &&
    value.bio === (previous.bio ?? '').trim()
  ) {
    return { ok: false, error: M.noProfileChanges };
  }
  return { ok: true, value };
}

/** The parts of a `File` the avatar rule looks at. */
export interface AvatarFile {
  type: string;
  size: number;
}

/**
 * 'Please select an image file' or 'File size must be less than 5MB', or null. "Less than" is
 * taken literally: exactly 5 MiB is refused.
 */
export function validateAvatar(file: AvatarFile): string | null {
  if (!file.type.toLowerCase().startsWith('image/')) return M.avatarNotImage;
  if (!(file.size < AVATAR.maxBytes)) return M.avatarTooLarge;
  return null;
}

/** Resending the verification email needs the page's `email` parameter. */
export function validateResend(email: string | null | undefined): string | null {
  return email && email.trim() !== '' ? null : M.emailNotFound;
}
