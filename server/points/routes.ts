/** `/api/v1/web3-tokens`: points, conversions to the reward token (the paths keep the backend's 'finu'). */
import { createRoute } from '@hono/zod-openapi';
import { POINTS } from 'ayah-coach/rules';
import type { MiddlewareHandler } from 'hono';

import type { AuthEnv } from '../http/auth';
import { AppError } from '../http/errors';
import { isUuid } from '../http/ids';
import { BEARER, createRouter, errorResponses, json } from '../http/openapi';
import {
  ActivityPage,
  ActivityQuery,
  Balance,
  ConversionInfo,
  ConvertBody,
  DistributionBalances,
  TransactionIdParams,
  TransactionResponse,
} from './schemas';
import type { PointsService } from './service';
import { POINTS_MESSAGES } from './service';

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
        200: json(ConversionInfo, 'The rule'),
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
        200: json(Balance, 'The balance'),
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
      request: { params: TransactionIdParams },
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
      request: { query: ActivityQuery },
      responses: {
        200: json(ActivityPage, 'A page'),
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
        200: json(DistributionBalances, 'Totals'),
        ...errorResponses(401),
      },
    }),
    async (c) => c.json(await service.distribution(c.var.auth.user.id), 200),
  );

  return app;
}
