/**
 * Password rules and hashing. The five rules of spec section 5 come from `ayah-coach/rules` (one
 * source of truth); the server adds a refusal of common passwords and a length cap. Hashes are argon2id
 * with OWASP's parameters; the whole password is hashed, never truncated.
 */
import { readFileSync } from 'node:fs';

import { hash, verify } from '@node-rs/argon2';
import { passwordError } from 'ayah-coach/rules';

/** Long enough for any passphrase, short enough that hashing stays cheap. */
export const PASSWORD_MAX_LENGTH = 256;

export const COMMON_PASSWORD_MESSAGE =
  'This password is too common. Please choose a less predictable one.';

const COMMON = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.toLowerCase()),
);

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}

/** Why a new password is refused, or null when it is acceptable. */
export function newPasswordProblem(password: string): string | null {
  return passwordError(password) ?? (isCommonPassword(password) ? COMMON_PASSWORD_MESSAGE : null);
}

// argon2id (the library's default algorithm), m = 19 MiB, t = 2, p = 1: OWASP's recommendation.
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false; // a malformed stored hash never signs anyone in
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the time of one verification, so that an unknown email answers as slowly as a wrong password. */
export async function verifyDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password: equalises timing');
  await verifyPassword(await dummyHash, password);
}
