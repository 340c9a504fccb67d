import { describe, expect, it, vi } from 'vitest';

import { walletDeletionSigner } from '../../../src/settings/wallet-deletion';

const ADDRESS = '0xabc1000000000000000000000000000000009f3e';
const nonce = vi.fn(async () => ({ message: 'Sign to delete: nonce ü' }));

describe('walletDeletionSigner', () => {
  it('signs a fresh server message with personal_sign, as hex of its UTF-8 bytes', async () => {
    const request = vi.fn(async () => '0xsignature');
    const sign = walletDeletionSigner(nonce, () => ({ request }));
    await expect(sign(ADDRESS)).resolves.toEqual({
      message: 'Sign to delete: nonce ü',
      signature: '0xsignature',
    });
    expect(nonce).toHaveBeenCalledWith({ wallet_address: ADDRESS });
    const hex = `0x${Buffer.from('Sign to delete: nonce ü', 'utf8').toString('hex')}`;
    expect(request).toHaveBeenCalledWith({ method: 'personal_sign', params: [hex, ADDRESS] });
  });

  it("says 'MetaMask is not installed…' without a wallet, asking the server nothing", async () => {
    nonce.mockClear();
    await expect(walletDeletionSigner(nonce, () => null)(ADDRESS)).rejects.toThrow(
      'MetaMask is not installed. Please install MetaMask extension.',
    );
    expect(nonce).not.toHaveBeenCalled();
  });

  it("says 'User rejected the signature request.' for code 4001, and passes other errors on", async () => {
    const refuse = (error: unknown) =>
      walletDeletionSigner(nonce, () => ({ request: () => Promise.reject(error) }))(ADDRESS);
    await expect(refuse(Object.assign(new Error('denied'), { code: 4001 }))).rejects.toThrow(
      'User rejected the signature request.',
    );
    await expect(refuse(new Error('chain down'))).rejects.toThrow('chain down');
  });
});
