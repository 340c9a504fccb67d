/** `/api/v1/web3-tokens`: points, conversions to the reward token (the paths keep the backend's 'finu'). */
import { createRoute, z } from '@hono/zod-openapi';
import { POINTS } from 'ayah-coach/rules';
import type { MiddlewareHandler } from 'hono';

import type { AuthEnv } from '../http/auth';
import { AppError } from '../http/errors';
import { isUuid } from '../http/ids';
import { BEARER, createRouter, errorResponses, json } from '../http/openapi';
import { pageOf, pageQuery } from '../http/paging';
import type { PointsService } from './service';
import { POINTS_MESSAGES } from './service';

const ConvertBody = z
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

const TransactionResponse = z.object({ transaction: Transaction }).openapi('TransactionResponse');

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

export function pointsRoutes(auth: MiddlewareHandler<AuthEnv>, service: PointsService) {
  const app = createRouter<AuthEnv>();
  const signedIn = { security: BEARER, middleware: auth };

  app.openapi(
    createRoute({
      method: 'get',
      path: '/conversion-info',
      summary: 'The conversion rule the server applies',
      ...signedIn,
      responses: {
        200: json(
          z
            .object({
              points_per_token: z.number().int(),
              min_points: z.number().int(),
              step: z.number().int(),
              token_name: z.string(),
            })
            .openapi('ConversionInfo'),
          'The rule',
        ),
        ...errorResponses(401),
      },
    }),
    (c) =>
      c.json(
        {
          points_per_token: POINTS.pointsPerToken,
          min_points: POINTS.minConversion,
          step: POINTS.conversionStep,
          token_name: POINTS.tokenName,
        },
        200,
      ),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/finu-balance',
      summary: "The caller's points and tokens",
      ...signedIn,
      responses: {
        200: json(
          z.object({ points: z.number().int(), tokens: z.number().int() }).openapi('Balance'),
          'The balance',
        ),
        ...errorResponses(401),
      },
    }),
    async (c) => c.json(await service.balance(c.var.auth.user.id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/convert-points-to-finu',
      summary: 'Convert points to tokens',
      description:
        'At least 100 points, in steps of 10, never more than the balance (also under concurrent calls). ' +
        'The transaction answered is `success`, or `failed` with the points given back.',
      ...signedIn,
      request: {
        body: { required: true, content: { 'application/json': { schema: ConvertBody } } },
      },
      responses: {
        201: json(TransactionResponse, 'The conversion'),
        ...errorResponses(400, 401, 415, 422),
      },
    }),
    async (c) => {
      const transaction = await service.convert(c.var.auth.user.id, c.req.valid('json').points);
      return c.json({ transaction }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/transaction/{id}',
      summary: 'One conversion of the caller',
      ...signedIn,
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: json(TransactionResponse, 'The conversion'), ...errorResponses(401, 404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      if (!isUuid(id)) throw new AppError(404, POINTS_MESSAGES.notFound);
      return c.json({ transaction: await service.transaction(c.var.auth.user.id, id) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/activity',
      summary: 'The points ledger, newest first',
      ...signedIn,
      request: { query: pageQuery(20) },
      responses: {
        200: json(pageOf('WalletActivityPage', 'data', Activity), 'A page'),
        ...errorResponses(401, 422),
      },
    }),
    async (c) => c.json(await service.activity(c.var.auth.user.id, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/distribution-balances',
      summary: 'Tokens distributed to and points converted by the caller',
      ...signedIn,
      responses: {
        200: json(
          z
            .object({ tokens_distributed: z.number().int(), points_converted: z.number().int() })
            .openapi('DistributionBalances'),
          'Totals',
        ),
        ...errorResponses(401),
      },
    }),
    async (c) => c.json(await service.distribution(c.var.auth.user.id), 200),
  );

  return app;
}
