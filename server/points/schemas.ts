/** The wire shapes of `/api/v1/web3-tokens` (zod, OpenAPI generated from them). */
import { z } from '@hono/zod-openapi';
import { POINTS } from 'ayah-coach/rules';

import { pageOf, pageQuery } from '../http/paging';

export const ConvertBody = z
  .strictObject({
    points: z
      .number()
      .int()
      .min(-1_000_000_000)
      .max(1_000_000_000)
      .openapi({
        description: `At least ${POINTS.minConversion}, in steps of ${POINTS.conversionStep}`,
      }),
  })
  .openapi('ConvertRequest');

const Transaction = z
  .object({
    id: z.string(),
    status: z.enum(['pending', 'success', 'failed']),
    points: z.number().int(),
    tokens: z.number().int(),
    created_at: z.string(),
  })
  .openapi('Transaction');

export const TransactionResponse = z
  .object({ transaction: Transaction })
  .openapi('TransactionResponse');

const Activity = z
  .object({
    type: z.enum(['earned', 'converted', 'deducted']),
    amount: z
      .number()
      .int()
      .openapi({ description: 'Points, always positive; `type` says which way' }),
    pointsUsed: z.number().int().nullable(),
    tokensReceived: z.number().int().nullable(),
    description: z.string(),
    timestamp: z.string(),
    category: z.string(),
  })
  .openapi('WalletActivity');

export const ConversionInfo = z
  .object({
    points_per_token: z.number().int(),
    min_points: z.number().int(),
    step: z.number().int(),
    token_name: z.string(),
  })
  .openapi('ConversionInfo');

export const Balance = z
  .object({ points: z.number().int(), tokens: z.number().int() })
  .openapi('Balance');

export const TransactionIdParams = z.object({ id: z.string() });

export const DistributionBalances = z
  .object({ tokens_distributed: z.number().int(), points_converted: z.number().int() })
  .openapi('DistributionBalances');

export const ActivityQuery = pageQuery(20);
export const ActivityPage = pageOf('WalletActivityPage', 'data', Activity);
