import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { createHttpApi } from '../../../src/http';
import { startServer, type TestServer } from './server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
  vi.restoreAllMocks();
});

const api = () => createHttpApi({ baseURL: server.url, getToken: () => 'tok-1' });

describe('the X-Timezone header', () => {
  it("sends the browser's IANA zone with every call", async () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    await api().goals.streak();
    await api().goals.create({ subject: 'math', goal_type: 'problems_solved', target_value: 10 });
    expect(server.received.map((r) => r.headers['x-timezone'])).toEqual([zone, zone]);
  });

  it('follows the zone the runtime reports', async () => {
    const real = Intl.DateTimeFormat;
    vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(
      (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) => {
        const format = new real(...args);
        const resolved = format.resolvedOptions();
        vi.spyOn(format, 'resolvedOptions').mockReturnValue({
          ...resolved,
          timeZone: 'America/Los_Angeles',
        });
        return format;
      },
    );
    await api().goals.streak();
    expect(server.received[0]?.headers['x-timezone']).toBe('America/Los_Angeles');
  });
});
