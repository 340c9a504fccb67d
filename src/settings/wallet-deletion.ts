import { type Eip1193Request, isUserRejection, personalSign } from '../lib/eip1193';
import { WALLET_MESSAGES } from '../lib/messages';
import type { DeletionSigner } from './AccountSection';

/**
 * The one call of an EIP-1193 wallet (e.g. `window.ethereum`) that deleting a wallet account needs.
 * Spelled out here, not as the shared type's alias, so that the settings entry's declarations name no
 * type the package does not export.
 */
export interface SigningWallet {
  request(request: Eip1193Request): Promise<unknown>;
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
      return { message, signature: await personalSign(provider, { message, account: address }) };
    } catch (error) {
      if (isUserRejection(error)) throw new Error(WALLET_MESSAGES.signatureRejected);
      throw error;
    }
  };
}
