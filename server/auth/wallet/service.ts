/**
 * Sign-In with Ethereum (EIP-4361). The server writes the message (its own domain and URI, the chain,
 * a random nonce kept in the database for 10 minutes); the wallet signs it; the server checks that the
 * message is exactly one it could have written, that the signer is the address in the body, and uses the
 * nonce up atomically. Contract wallets (EIP-1271) are not supported: the signer must be the address.
 */
import { randomBytes } from 'node:crypto';

import { and, eq, gt, lt } from 'drizzle-orm';
import { getAddress, verifyMessage } from 'ethers';
import { SiweMessage } from 'siwe';

import type { Queryable } from '../../db';
import { transaction } from '../../db';
import { siweNonces, users } from '../../db/schema';
import type { Deps } from '../../deps';
import { unauthorized } from '../../http/errors';
import { limitNewAccounts } from '../../http/rate-limit';
import type { SessionService, SignedIn } from '../sessions';

export const WALLET_MESSAGES = {
  statement: 'Sign in to Ayah, your AI learning coach.',
  invalidMessage: 'The signed message is not a sign-in message from this server',
  otherSite: 'The signed message is for another site or chain',
  otherAddress: 'The signed message is for another wallet address',
  invalidSignature: 'Invalid signature',
  invalidNonce: 'Invalid or expired nonce',
} as const;

const NONCE_TTL_MS = 10 * 60_000;

/** `0x1234…abcd`: a new wallet account's display name until the user picks one. */
function shortAddress(checksummed: string): string {
  return `${checksummed.slice(0, 6)}…${checksummed.slice(-4)}`;
}

export function createWalletSignIn(deps: Deps, sessions: Pick<SessionService, 'startSession'>) {
  const { db, config, now } = deps;
  const site = new URL(config.publicUrl);
  const domain = site.host;
  const uri = config.publicUrl;

  async function accountFor(tx: Queryable, address: string, client: string): Promise<SignedIn> {
    const byAddress = () =>
      tx.select({ id: users.id }).from(users).where(eq(users.walletAddress, address)).limit(1);
    let [account] = await byAddress();
    if (!account) {
      const at = now();
      await limitNewAccounts(tx, client, config.limits.newAccountsPerAddress, at);
      [account] = await tx
        .insert(users)
        .values({
          email: null,
          displayName: shortAddress(getAddress(address)),
          walletAddress: address,
          createdAt: at,
          updatedAt: at,
        })
        // A concurrent first sign-in of the same wallet won: use its account.
        .onConflictDoNothing({ target: users.walletAddress })
        .returning({ id: users.id });
      if (!account) [account] = await byAddress();
    }
    return sessions.startSession(tx, account!.id);
  }

  return {
    /** A fresh EIP-4361 message for the address to sign; its nonce is single use for 10 minutes. */
    async issue(walletAddress: string): Promise<string> {
      const address = walletAddress.toLowerCase();
      const nonce = randomBytes(16).toString('hex');
      const at = now();
      const expiresAt = new Date(at.getTime() + NONCE_TTL_MS);
      await db.delete(siweNonces).where(lt(siweNonces.expiresAt, at));
      await db
        .insert(siweNonces)
        .values({ nonce, walletAddress: address, createdAt: at, expiresAt });
      return new SiweMessage({
        domain,
        address: getAddress(address),
        statement: WALLET_MESSAGES.statement,
        uri,
        version: '1',
        chainId: config.siweChainId,
        nonce,
        issuedAt: at.toISOString(),
        expirationTime: expiresAt.toISOString(),
      }).prepareMessage();
    },

    /** Signs the wallet in (creating its account on the first sign-in); 401 for anything amiss. */
    async authenticate(
      input: {
        wallet_address: string;
        signature: string;
        message: string;
      },
      client: string,
    ): Promise<SignedIn> {
      const address = input.wallet_address.toLowerCase();
      let message: SiweMessage;
      try {
        message = new SiweMessage(input.message);
      } catch {
        throw unauthorized(WALLET_MESSAGES.invalidMessage);
      }
      // What was signed must be exactly what was parsed (no second reading of the same bytes).
      if (
        message.prepareMessage() !== input.message ||
        message.version !== '1' ||
        message.statement !== WALLET_MESSAGES.statement
      ) {
        throw unauthorized(WALLET_MESSAGES.invalidMessage);
      }
      if (
        message.domain !== domain ||
        message.uri !== uri ||
        message.chainId !== config.siweChainId ||
        (message.scheme !== undefined && `${message.scheme}:` !== site.protocol)
      ) {
        throw unauthorized(WALLET_MESSAGES.otherSite);
      }
      if (message.address.toLowerCase() !== address) {
        throw unauthorized(WALLET_MESSAGES.otherAddress);
      }
      let signer: string;
      try {
        signer = verifyMessage(input.message, input.signature);
      } catch {
        throw unauthorized(WALLET_MESSAGES.invalidSignature);
      }
      if (signer.toLowerCase() !== address) throw unauthorized(WALLET_MESSAGES.invalidSignature);
      // siwe's own checks too: domain, nonce, signature, expiry and not-before on our clock.
      const verdict = await message.verify(
        { signature: input.signature, domain, nonce: message.nonce, time: now().toISOString() },
        { suppressExceptions: true },
      );
      if (!verdict.success) throw unauthorized(WALLET_MESSAGES.invalidNonce);

      const signedIn = await transaction(db, async (tx) => {
        // Used up atomically: of any number of concurrent uses of one nonce, exactly one gets it.
        const [claimed] = await tx
          .delete(siweNonces)
          .where(
            and(
              eq(siweNonces.nonce, message.nonce),
              eq(siweNonces.walletAddress, address),
              gt(siweNonces.expiresAt, now()),
            ),
          )
          .returning({ nonce: siweNonces.nonce });
        if (!claimed) return null;
        return accountFor(tx, address, client);
      });
      if (!signedIn) throw unauthorized(WALLET_MESSAGES.invalidNonce);
      return signedIn;
    },
  };
}
