import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { isWalletAddress, sameAddress, WALLET_ADDRESS_PATTERN } from '../../../src/lib/wallet';

const hex = (n: number) => 'a'.repeat(n);

describe('isWalletAddress', () => {
  it('accepts 0x and exactly 40 hex characters, in any case', () => {
    expect(isWalletAddress(`0x${hex(40)}`)).toBe(true);
    expect(isWalletAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe(true);
    expect(isWalletAddress('0xde709f2102306220921060314715629080e2fb77')).toBe(true);
    expect(isWalletAddress(`0x${'F'.repeat(40)}`)).toBe(true);
  });

  it('refuses 39 and 41 hex characters', () => {
    expect(isWalletAddress(`0x${hex(39)}`)).toBe(false);
    expect(isWalletAddress(`0x${hex(41)}`)).toBe(false);
  });

  it.each([
    ['no prefix', hex(42)],
    ['upper-case prefix', `0X${hex(40)}`],
    ['non-hex digit', `0x${hex(39)}g`],
    ['surrounding space', ` 0x${hex(40)}`],
    ['trailing newline', `0x${hex(40)}\n`],
    ['empty', ''],
  ])('refuses %s', (_label, value) => {
    expect(isWalletAddress(value)).toBe(false);
  });

  it('refuses non-strings', () => {
    expect(isWalletAddress(undefined)).toBe(false);
    expect(isWalletAddress(null)).toBe(false);
    expect(isWalletAddress(42)).toBe(false);
  });

  it('agrees with the pattern for any 40-character hex string', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-fA-F]{40}$/), (digits) => {
        expect(isWalletAddress(`0x${digits}`)).toBe(true);
        expect(WALLET_ADDRESS_PATTERN.test(`0x${digits}`)).toBe(true);
      }),
    );
  });
});

describe('sameAddress', () => {
  const lower = '0x52908400098527886e0f7030069857d2e4169ee7';
  const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7';

  it('ignores case', () => {
    expect(sameAddress(lower, checksummed)).toBe(true);
    expect(sameAddress(checksummed, checksummed.toUpperCase().replace('0X', '0x'))).toBe(true);
  });

  it('tells different accounts apart', () => {
    expect(sameAddress(lower, lower.replace(/7$/, '8'))).toBe(false);
  });

  it('never matches a missing address', () => {
    expect(sameAddress(null, lower)).toBe(false);
    expect(sameAddress(lower, undefined)).toBe(false);
    expect(sameAddress('', '')).toBe(false);
    expect(sameAddress(null, null)).toBe(false);
  });
});
