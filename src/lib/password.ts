import { AUTH } from './limits';

export type RequirementId = 'length' | 'lowercase' | 'uppercase' | 'number' | 'special';

export interface PasswordRequirement {
  id: RequirementId;
  /** The spec's exact requirement text. */
  label: string;
  test: (password: string) => boolean;
}

/** The five password requirements of spec section 5, in the spec's order. */
export const PASSWORD_REQUIREMENTS: readonly PasswordRequirement[] = [
  {
    id: 'length',
    label: 'At least 8 characters',
    // Counted in code points, so an emoji is one character, not two UTF-16 units.
    test: (p) => [...p].length >= AUTH.passwordMinLength,
  },
  { id: 'lowercase', label: 'At least one lowercase letter', test: (p) => /\p{Ll}/u.test(p) },
  { id: 'uppercase', label: 'At least one uppercase letter', test: (p) => /\p{Lu}/u.test(p) },
  { id: 'number', label: 'At least one number', test: (p) => /\p{Nd}/u.test(p) },
  {
    id: 'special',
    label: 'At least one special character',
    // "Special" is anything that is not a letter or a digit (spaces and symbols alike).
    test: (p) => /[^\p{L}\p{Nd}]/u.test(p),
  },
];

export type StrengthLabel = 'Very Weak' | 'Weak' | 'Fair' | 'Good' | 'Strong';
export type StrengthLevel = 'very-weak' | 'weak' | 'fair' | 'good' | 'strong';

export interface PasswordCheck {
  /** Which requirement is met, by id. */
  met: Record<RequirementId, boolean>;
  /** Labels of the unmet requirements, in the spec's order. */
  unmet: string[];
  /** How many requirements are met, 0–5. */
  strength: number;
  label: StrengthLabel;
  level: StrengthLevel;
  /** All five met. */
  valid: boolean;
}

const LEVELS: readonly [StrengthLevel, StrengthLabel][] = [
  ['very-weak', 'Very Weak'],
  ['very-weak', 'Very Weak'],
  ['weak', 'Weak'],
  ['fair', 'Fair'],
  ['good', 'Good'],
  ['strong', 'Strong'],
];

/** Checks a password against the five requirements and grades it (0–1 Very Weak … 5 Strong). */
export function checkPassword(password: string): PasswordCheck {
  const met = {} as Record<RequirementId, boolean>;
  const unmet: string[] = [];
  for (const requirement of PASSWORD_REQUIREMENTS) {
    const ok = requirement.test(password);
    met[requirement.id] = ok;
    if (!ok) unmet.push(requirement.label);
  }
  const strength = PASSWORD_REQUIREMENTS.length - unmet.length;
  const [level, label] = LEVELS[strength]!;
  return { met, unmet, strength, label, level, valid: unmet.length === 0 };
}

export const PASSWORD_ERROR_PREFIX = 'Password does not meet requirements: ';

/** The spec's error for a password that misses any requirement, or null when all five are met. */
export function passwordError(password: string): string | null {
  const { unmet } = checkPassword(password);
  return unmet.length === 0 ? null : PASSWORD_ERROR_PREFIX + unmet.join(', ');
}
