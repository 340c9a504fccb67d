/** A wallet address: `0x` and 40 hex digits, in any case (EIP-55 checksums mix cases). */
export const WALLET_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** Whether `value` is a well-formed wallet address. */
export function isWalletAddress(value: unknown): value is string {
  return typeof value === 'string' && WALLET_ADDRESS_PATTERN.test(value);
}

/**
 * Whether two addresses are the same account. Case is ignored because wallets report checksummed
 * (mixed-case) addresses while servers often store them lower-cased. Missing values never match.
 */
export function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  return a.toLowerCase() === b.toLowerCase();
}
