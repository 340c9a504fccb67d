import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  checkPassword,
  PASSWORD_ERROR_PREFIX,
  PASSWORD_REQUIREMENTS,
  passwordError,
} from '../../../src/lib/password';

const ALL_UNMET =
  'Password does not meet requirements: At least 8 characters, At least one lowercase letter, At least one uppercase letter, At least one number, At least one special character';

describe('password requirements', () => {
  it("lists the spec's five texts in the spec's order", () => {
    expect(PASSWORD_REQUIREMENTS.map((r) => r.label)).toEqual([
      'At least 8 characters',
      'At least one lowercase letter',
      'At least one uppercase letter',
      'At least one number',
      'At least one special character',
    ]);
  });

  it('refuses 7 characters and accepts 8', () => {
    expect(passwordError('Aa1!aaa')).toBe(
      'Password does not meet requirements: At least 8 characters',
    );
    expect(passwordError('Aa1!aaaa')).toBeNull();
  });

  it.each([
    ['length', 'Aa1!aa', 'At least 8 characters'],
    ['lowercase', 'AAAA1!AA', 'At least one lowercase letter'],
    ['uppercase', 'aaaa1!aa', 'At least one uppercase letter'],
    ['number', 'Aaaa!!aa', 'At least one number'],
    ['special', 'Aaaa11aa', 'At least one special character'],
  ])('reports exactly the missing %s requirement', (_id, password, label) => {
    expect(checkPassword(password).unmet).toEqual([label]);
    expect(passwordError(password)).toBe(PASSWORD_ERROR_PREFIX + label);
  });

  it.each([
    ['length', 'aaaaaaaa', ['length', 'lowercase']],
    ['lowercase', 'a', ['lowercase']],
    ['uppercase', 'A', ['uppercase']],
    ['number', '1', ['number']],
    ['special', '!', ['special']],
  ])('meets %s on its own', (_id, password, expected) => {
    const { met } = checkPassword(password);
    expect(
      Object.entries(met)
        .filter(([, ok]) => ok)
        .map(([id]) => id),
    ).toEqual(expected);
  });

  it('lists every unmet requirement, comma-separated, in order', () => {
    expect(passwordError('')).toBe(ALL_UNMET);
    expect(passwordError('abc')).toBe(
      'Password does not meet requirements: At least 8 characters, At least one uppercase letter, At least one number, At least one special character',
    );
  });

  it('counts unicode letters by case and an emoji as one character', () => {
    expect(passwordError('Пароль1!')).toBeNull();
    expect(passwordError('Éclair1!')).toBeNull();
    expect(checkPassword('密码密码密码1!').met).toMatchObject({
      lowercase: false,
      uppercase: false,
    });
    expect(checkPassword('Aa1!😀😀😀').met.length).toBe(false);
    expect(checkPassword('Aa1!😀😀😀😀').met.length).toBe(true);
  });

  it('takes a space or any symbol as special, and unicode digits as numbers', () => {
    expect(passwordError('Aaaa 1aa')).toBeNull();
    expect(checkPassword('€').met.special).toBe(true);
    expect(checkPassword('٣').met.number).toBe(true);
  });

  it.each([
    ['', 0, 'Very Weak', 'very-weak'],
    ['a', 1, 'Very Weak', 'very-weak'],
    ['aA', 2, 'Weak', 'weak'],
    ['aA1', 3, 'Fair', 'fair'],
    ['aA1!', 4, 'Good', 'good'],
    ['aA1!aaaa', 5, 'Strong', 'strong'],
  ])('grades %j as strength %i, %s', (password, strength, label, level) => {
    expect(checkPassword(password)).toMatchObject({ strength, label, level });
    expect(checkPassword(password).valid).toBe(strength === 5);
  });

  it('is valid exactly when there is no error, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (password) => {
        const check = checkPassword(password);
        expect(check.valid).toBe(passwordError(password) === null);
        expect(check.strength).toBe(5 - check.unmet.length);
      }),
    );
  });
});
