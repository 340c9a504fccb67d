import type { HttpClient } from '../http-client';
import type { WalletAdapter } from './wallet.adapter';

const TOKENS = '/api/v1/web3-tokens';

/** The wallet adapter over HTTP. The paths keep the backend's token name, 'finu'. */
export function walletHttp(client: HttpClient): WalletAdapter {
  return {
    conversionInfo: ({ signal } = {}) => client.request(`${TOKENS}/conversion-info`, { signal }),
    balance: ({ signal } = {}) => client.request(`${TOKENS}/finu-balance`, { signal }),
    convert: (body, { signal } = {}) =>
      client.request(`${TOKENS}/convert-points-to-finu`, { method: 'POST', body, signal }),
    transaction: (transactionId, { signal } = {}) =>
      client.request(`${TOKENS}/transaction/${encodeURIComponent(transactionId)}`, { signal }),
    activity: ({ limit, page } = {}, { signal } = {}) =>
      client.request(`${TOKENS}/activity`, { query: { limit, page }, signal }),
    distributionBalances: ({ signal } = {}) =>
      client.request(`${TOKENS}/distribution-balances`, { signal }),
  };
}
