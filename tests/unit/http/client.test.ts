import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { createHttpApi, type HttpApiOptions } from '../../../src/http';
import { ApiError } from '../../../src/lib/http-errors';
import { delay, json, startServer, type TestServer } from './server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
  vi.restoreAllMocks();
});

function api(options: Partial<HttpApiOptions> = {}) {
  return createHttpApi({ baseURL: server.url, getToken: () => 'tok-1', ...options });
}

/** The rejection of `promise`, which must reject. */
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the error catalogue over HTTP', () => {
  it.each([
    [401, { detail: 'Token expired' }, 'Authentication required. Please log in again.'],
    [403, { detail: 'Email not verified' }, 'Access forbidden. Insufficient permissions.'],
    [404, { detail: 'Goal not found' }, 'Goal not found'],
    [404, { message: 'Nothing here' }, 'Nothing here'],
    [404, {}, 'Resource not found.'],
    [422, { detail: [{ loc: ['body', 'x'], msg: 'a' }, { msg: 'b' }] }, 'a, b'],
    [422, { detail: { target_value: ['too big'] } }, 'target_value: too big'],
    [422, {}, 'Validation failed. Please check your input.'],
    [500, { detail: 'db down' }, 'Server error. Please try again later.'],
    [503, 'Service Unavailable', 'Server error. Please try again later.'],
    [400, { detail: 'Current password is incorrect' }, 'Current password is incorrect'],
    [409, { message: 'Taken' }, 'Taken'],
    [429, {}, 'HTTP 429: Too Many Requests'],
    [418, 'short and stout', "HTTP 418: I'm a Teapot"],
  ])('%i %j → %s', async (status, body, message) => {
    server.handle((_req, res) => json(res, status, body));
    const error = await failure(api().goals.streak());
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
  });

  it('keeps a 403 detail for the features to map', async () => {
    server.handle((_req, res) => json(res, 403, { detail: 'Email not verified' }));
    const error = await failure(api().auth.login({ email: 'a@b.co', password: 'x' }));
    expect(error.detail).toBe('Email not verified');
  });

  it('calls onUnauthorized once on a 401, and never on other failures', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const onUnauthorized = vi.fn();
    const client = api({ onUnauthorized });
    server.handle((_req, res) => json(res, 401, { detail: 'Invalid token' }));
    await failure(client.auth.me());
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    for (const status of [400, 402, 403, 404, 422, 500]) {
      server.handle((_req, res) => json(res, status, {}));
      await failure(client.goals.listCurrent());
    }
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('raises onTrialExpired when TRIAL_EXPIRED is in the detail or the message', async () => {
    const onTrialExpired = vi.fn();
    const client = api({ onTrialExpired });
    server.handle((_req, res) => json(res, 403, { detail: 'TRIAL_EXPIRED' }));
    await failure(client.chat.listSessions());
    server.handle((_req, res) => json(res, 400, { message: 'Error: TRIAL_EXPIRED' }));
    await failure(client.chat.listSessions());
    expect(onTrialExpired).toHaveBeenCalledTimes(2);
    server.handle((_req, res) => json(res, 400, { detail: 'Trial is fine' }));
    await failure(client.chat.listSessions());
    server.handle((_req, res) => json(res, 200, { note: 'TRIAL_EXPIRED' }));
    await client.chat.listSessions();
    expect(onTrialExpired).toHaveBeenCalledTimes(2);
  });

  it('logs a 402 and rejects that call only, without signing out', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const onUnauthorized = vi.fn();
    const client = api({ onUnauthorized });
    server.handle((_req, res) => json(res, 402, { detail: 'Upgrade to premium' }));
    const error = await failure(client.wallet.balance());
    expect(error.status).toBe(402);
    expect(error.message).toBe('Upgrade to premium');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).not.toHaveBeenCalled();
    server.handle((_req, res) => json(res, 200, { points: 1, tokens: 0 }));
    await expect(client.wallet.balance()).resolves.toEqual({ points: 1, tokens: 0 });
  });

  it('never retries a failed call', async () => {
    server.handle((_req, res) => json(res, 500, {}));
    await failure(api().goals.listAll());
    expect(server.received).toHaveLength(1);
  });

  it('answers a JSON body as parsed JSON', async () => {
    server.handle((_req, res) => json(res, 200, { streak: 4 }));
    await expect(api().goals.streak()).resolves.toEqual({ streak: 4 });
  });
});

describe('headers', () => {
  it('sends the bearer token and asks for JSON', async () => {
    await api().goals.streak();
    expect(server.received[0]?.headers.authorization).toBe('Bearer tok-1');
    expect(server.received[0]?.headers.accept).toBe('application/json');
  });

  it('reads the token at each call, from a sync or async getToken', async () => {
    let token: string | null = 'first';
    const client = api({ getToken: async () => token });
    await client.goals.streak();
    token = 'second';
    await client.goals.streak();
    token = null;
    await client.goals.streak();
    expect(server.received.map((r) => r.headers.authorization)).toEqual([
      'Bearer first',
      'Bearer second',
      undefined,
    ]);
  });

  it('sends no Authorization header when signed out', async () => {
    await api({ getToken: () => undefined }).goals.streak();
    expect(server.received[0]?.headers).not.toHaveProperty('authorization');
  });

  it('sends no cookies, even after the server sets one', async () => {
    server.handle((_req, res) =>
      json(res, 200, {}, { 'set-cookie': 'session=abc; Path=/; HttpOnly' }),
    );
    const seen: RequestInit[] = [];
    const client = api({
      fetch: (input, init) => {
        seen.push(init ?? {});
        return fetch(input, init);
      },
    });
    await client.goals.streak();
    await client.goals.streak();
    expect(server.received.map((r) => r.headers.cookie)).toEqual([undefined, undefined]);
    expect(seen.map((init) => init.credentials)).toEqual(['omit', 'omit']);
  });
});

describe('failures without an answer', () => {
  it('turns a refused connection into an ApiError of status 0', async () => {
    const gone = await startServer();
    const url = gone.url;
    await gone.close();
    const error = await failure(
      createHttpApi({ baseURL: url, getToken: () => null }).goals.streak(),
    );
    expect(error.status).toBe(0);
    expect(error.message).toBe('Network error. Please check your connection.');
  });

  it('turns a connection dropped before the answer into an ApiError of status 0', async () => {
    server.handle((req) => {
      req.socket.destroy();
    });
    const error = await failure(api().goals.streak());
    expect(error.status).toBe(0);
  });

  it('lets an abort through as an AbortError, not an ApiError', async () => {
    server.handle(async (_req, res) => {
      await delay(500);
      json(res, 200, {});
    });
    const onUnauthorized = vi.fn();
    const controller = new AbortController();
    const call = api({ onUnauthorized }).goals.streak({ signal: controller.signal });
    await delay(20);
    controller.abort();
    const error = await call.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('rejects a call whose signal has already aborted without sending it', async () => {
    const error = await api()
      .goals.streak({ signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(server.received).toHaveLength(0);
  });
});
