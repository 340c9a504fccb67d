import type { CallOptions, Paged, PageQuery } from '../wire';

/** The server's conversion rule (DECISIONS.md: 10 points = 1 token, at least 100, steps of 10). */
export type ConversionInfo = {
  points_per_token: number;
  min_points: number;
  step: number;
  /** The name the screen shows ('AYAH'). */
  token_name: string;
};

/** The caller's points and tokens. */
export type Balance = {
  points: number;
  tokens: number;
};

/** POST /convert-points-to-finu. */
export type ConvertRequest = {
  points: number;
};

/** A points-to-tokens conversion. */
export type Transaction = {
  id: string;
  status: 'pending' | 'success' | 'failed';
  points: number;
  tokens: number;
  created_at: string;
};

/** Answers that carry one transaction. */
export type TransactionResponse = {
  transaction: Transaction;
};

/** One change of points. `pointsUsed` and `tokensReceived` are null unless it is a conversion. */
export type WalletActivity = {
  type: 'earned' | 'converted' | 'deducted';
  amount: number;
  pointsUsed: number | null;
  tokensReceived: number | null;
  description: string;
  timestamp: string;
  category: string;
};

/** What the caller has had distributed and converted, in total. */
export type DistributionBalances = {
  tokens_distributed: number;
  points_converted: number;
};

/** Points and reward tokens: `/api/v1/web3-tokens` (the paths keep the backend's 'finu'). */
export interface WalletAdapter {
  /** The conversion rule the server applies. */
  conversionInfo(options?: CallOptions): Promise<ConversionInfo>;
  /** GET /finu-balance. */
  balance(options?: CallOptions): Promise<Balance>;
  /** POST /convert-points-to-finu; 400 below the minimum, off the step or above the balance. */
  convert(body: ConvertRequest, options?: CallOptions): Promise<TransactionResponse>;
  /** One conversion, by id. */
  transaction(id: string, options?: CallOptions): Promise<TransactionResponse>;
  /** The points ledger, newest first. */
  activity(query?: PageQuery, options?: CallOptions): Promise<Paged<'data', WalletActivity>>;
  /** Totals distributed and converted. */
  distributionBalances(options?: CallOptions): Promise<DistributionBalances>;
}
