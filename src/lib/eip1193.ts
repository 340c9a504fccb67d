import { USER_REJECTED_CODE } from './messages';

/**
 * The EIP-1193 wallet calls that both wallet sign-in (`auth/wallet-provider.ts`) and the deletion of
 * a wallet account (`settings/wallet-deletion.ts`) make: one piece of code for `personal_sign`.
 */

/** An EIP-1193 request. */
export type Eip1193Request = { method: string; params?: readonly unknown[] | object };

/** The one method of an EIP-1193 provider (`window.ethereum`) that signing needs. */
export type Eip1193Requester = {
  request(request: Eip1193Request): Promise<unknown>;
};

/** The EIP-1193 code for "the user rejected the request" (ethers says 'ACTION_REJECTED'). */
export function isUserRejection(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === USER_REJECTED_CODE || code === 'ACTION_REJECTED';
}

/**
 * `provider.request` that gives up when `signal` aborts (EIP-1193 has no cancel: the wallet's own
 * prompt stays open, but the caller has moved on).
 */
export function request<T>(
  provider: Eip1193Requester,
  call: Eip1193Request,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = () => reject(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    provider
      .request(call)
      .then((value) => resolve(value as T), reject)
      .finally(() => signal?.removeEventListener('abort', abort));
  });
}

/** `message` as the 0x-hex of its UTF-8 bytes, as `personal_sign` takes it. */
export function utf8Hex(message: string): string {
  const bytes = new TextEncoder().encode(message);
  return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Has the wallet sign `message` as `account` (EIP-191 `personal_sign`); the signature as it answers. */
export async function personalSign(
  provider: Eip1193Requester,
  { message, account }: { message: string; account: string },
  signal?: AbortSignal,
): Promise<string> {
  const signature = await request<unknown>(
    provider,
    { method: 'personal_sign', params: [utf8Hex(message), account] },
    signal,
  );
  return String(signature);
}
