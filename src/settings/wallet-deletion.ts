import { WALLET_MESSAGES } from '../lib/messages';
import type { DeletionSigner } from './AccountSection';

/** The one call of an EIP-1193 wallet (e.g. `window.ethereum`) that deleting a wallet account needs. */
export type SigningWallet = {
  request(request: { method: string; params?: readonly unknown[] }): Promise<unknown>;
};

/** The message as the 0x-hex of its UTF-8 bytes, as `personal_sign` takes it. */
function hexOf(message: string): string {
  const bytes = new TextEncoder().encode(message);
  return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * What confirms the deletion of a wallet account: a fresh single-use message from the server
 * (`POST /auth/web3/nonce`, e.g. `api.auth.web3Nonce`) signed with `personal_sign` by `wallet()`
 * (e.g. `injectedProvider` from `ayah-coach/auth`). Fails in the spec's words when there is no wallet
 * or the student refuses to sign.
 */
export function walletDeletionSigner(
  nonce: (body: { wallet_address: string }) => Promise<{ message: string }>,
  wallet: () => SigningWallet | null | undefined,
): DeletionSigner {
  return async (address) => {
    const provider = wallet();
    if (!provider) throw new Error(WALLET_MESSAGES.metamaskMissing);
    const { message } = await nonce({ wallet_address: address });
    try {
      const signature = await provider.request({
        method: 'personal_sign',
        params: [hexOf(message), address],
      });
      return { message, signature: String(signature) };
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 4001 || code === 'ACTION_REJECTED')
        throw new Error(WALLET_MESSAGES.signatureRejected);
      throw error;
    }
  };
}
