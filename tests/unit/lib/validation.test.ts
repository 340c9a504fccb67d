import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { AVATAR } from '../../../src/lib/limits';
import {
  EMAIL_PATTERN,
  isValidEmail,
  validateAvatar,
  validateChangePassword,
  validateProfile,
  validateResend,
  validateSignUp,
} from '../../../src/lib/validation';

const STRONG = 'Str0ng!pass';
const WEAK_ERROR =
  'Password does not meet requirements: At least one uppercase letter, At least one number, At least one special character';

describe('isValidEmail', () => {
  it.each([
    'student@school.org',
    'a.b+tag@sub.example.co.uk',
    'x@y.z',
    '  padded@example.com  ',
    'üser@exämple.de',
  ])('accepts %j', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    '',
    'plain',
    '@example.com',
    'user@',
    'user@example',
    'user@example.',
    'user@.com',
    'user@example..com',
    'user@@example.com',
    'us er@example.com',
    'user@exa mple.com',
    'a@b@c.com',
  ])('refuses %j', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it('answers quickly on adversarial input (no catastrophic backtracking)', () => {
    const started = performance.now();
    EMAIL_PATTERN.test(`a@${'a.'.repeat(50_000)}!`);
    EMAIL_PATTERN.test(`${'a'.repeat(100_000)}@`);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('validateSignUp', () => {
  const valid = { name: 'Ada', email: 'ada@example.com', password: STRONG };

  it('passes a complete form', () => {
    expect(validateSignUp(valid)).toBeNull();
  });

  it("reports the first problem in the spec's order", () => {
    const empty = { name: '', email: '', password: '' };
    expect(validateSignUp(empty)).toBe('Name is required');
    expect(validateSignUp({ ...empty, name: 'Ada' })).toBe('Email is required');
    expect(validateSignUp({ ...empty, name: 'Ada', email: 'nope' })).toBe(
      'Please enter a valid email address',
    );
    expect(validateSignUp({ ...valid, password: '' })).toBe('Password is required');
    expect(validateSignUp({ ...valid, password: 'weakpass' })).toBe(WEAK_ERROR);
  });

  it('treats blank name and email as missing but keeps spaces in a password', () => {
    expect(validateSignUp({ ...valid, name: '   ' })).toBe('Name is required');
    expect(validateSignUp({ ...valid, email: ' \t ' })).toBe('Email is required');
    expect(validateSignUp({ ...valid, password: 'Aa1 aaaa' })).toBeNull();
    expect(validateSignUp({ ...valid, password: '        ' })).toMatch(/^Password does not/);
  });
});

describe('validateChangePassword', () => {
  const valid = { current: 'Old!pass1', next: STRONG, confirm: STRONG };

  it('passes a good change', () => {
    expect(validateChangePassword(valid)).toBeNull();
  });

  it.each([{ current: '' }, { next: '' }, { confirm: '' }, { current: '', next: '', confirm: '' }])(
    'needs all three fields (%j)',
    (change) => {
      expect(validateChangePassword({ ...valid, ...change })).toBe(
        'Please fill in all password fields',
      );
    },
  );

  it("checks match, then strength, then difference — the spec's order", () => {
    expect(validateChangePassword({ current: STRONG, next: 'weakpass', confirm: 'other' })).toBe(
      'New passwords do not match',
    );
    expect(
      validateChangePassword({ current: 'weakpass', next: 'weakpass', confirm: 'weakpass' }),
    ).toBe(WEAK_ERROR);
    expect(validateChangePassword({ current: STRONG, next: STRONG, confirm: STRONG })).toBe(
      'New password must be different from current password',
    );
  });
});

describe('validateProfile', () => {
  it('trims both fields into the wire body', () => {
    expect(validateProfile({ displayName: '  Ada  ', bio: '\nLikes maths ' })).toEqual({
      ok: true,
      value: { display_name: 'Ada', bio: 'Likes maths' },
    });
  });

  it("refuses when both are empty after trimming: 'No changes to save'", () => {
    expect(validateProfile({ displayName: '  ', bio: '\t' })).toEqual({
      ok: false,
      error: 'No changes to save',
    });
  });

  it('allows one empty field', () => {
    expect(validateProfile({ displayName: '', bio: 'Hi' }).ok).toBe(true);
    expect(validateProfile({ displayName: 'Ada', bio: '' }).ok).toBe(true);
  });

  it('refuses an update equal to the saved profile after trimming', () => {
    const saved = { displayName: 'Ada', bio: 'Hi' };
    expect(validateProfile({ displayName: ' Ada ', bio: 'Hi ' }, saved)).toEqual({
      ok: false,
      error: 'No changes to save',
    });
    expect(validateProfile({ displayName: 'Ada L', bio: 'Hi' }, saved).ok).toBe(true);
    expect(validateProfile({ displayName: 'Ada', bio: '' }, { displayName: 'Ada' })).toEqual({
      ok: false,
      error: 'No changes to save',
    });
  });
});

describe('validateAvatar', () => {
  it('needs an image', () => {
    expect(validateAvatar({ type: 'application/pdf', size: 10 })).toBe(
      'Please select an image file',
    );
    expect(validateAvatar({ type: '', size: 10 })).toBe('Please select an image file');
    expect(validateAvatar({ type: 'image/png', size: 10 })).toBeNull();
    expect(validateAvatar({ type: 'IMAGE/JPEG', size: 10 })).toBeNull();
  });

  it('needs less than 5MB: 5 MiB - 1 byte passes, 5 MiB does not', () => {
    expect(AVATAR.maxBytes).toBe(5_242_880);
    expect(validateAvatar({ type: 'image/webp', size: AVATAR.maxBytes - 1 })).toBeNull();
    expect(validateAvatar({ type: 'image/webp', size: AVATAR.maxBytes })).toBe(
      'File size must be less than 5MB',
    );
    expect(validateAvatar({ type: 'image/webp', size: Number.NaN })).toBe(
      'File size must be less than 5MB',
    );
  });

  it('checks the type before the size', () => {
    expect(validateAvatar({ type: 'text/plain', size: AVATAR.maxBytes * 2 })).toBe(
      'Please select an image file',
    );
  });
});

describe('validateResend', () => {
  it.each([null, undefined, '', '   '])(
    "needs the email parameter (%j): 'Email address not found'",
    (email) => {
      expect(validateResend(email)).toBe('Email address not found');
    },
  );

  it('passes with an email', () => {
    expect(validateResend('ada@example.com')).toBeNull();
  });
});

describe('validateSignUp, for any input', () => {
  it('returns null or one of its messages and never throws', () => {
    const messages = new Set([
      'Name is required',
      'Email is required',
      'Please enter a valid email address',
      'Password is required',
    ]);
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (name, email, password) => {
        const error = validateSignUp({ name, email, password });
        expect(error === null || messages.has(error) || error.startsWith('Password does not')).toBe(
          true,
        );
      }),
    );
  });
});
