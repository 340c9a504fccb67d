/**
 * The Node server's own limits (red team round 3, #16), on the real process: a request whose body
 * trickles in is cut at the request timeout (it was held 300 s), and one address's connections beyond
 * the cap are closed as they open.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { describeServer } from '../harness';
import type { ServerProcess } from '../server-process';
import { startServer, stopServer } from '../server-process';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ayah-connections-'));
let server: ServerProcess;
beforeAll(async () => {
  server = await startServer(dataDir, {
    AYAH_REQUEST_TIMEOUT_MS: '1500',
    AYAH_CONNECTIONS_PER_ADDRESS: '4',
    AYAH_KEEP_ALIVE_MS: '2500',
  });
}, 180_000);
afterAll(async () => {
  if (server) await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Opens a connection from `from` (a loopback address: each test its own, so that the connections an
 * earlier test's closing left on the server count against no other's cap); answers it, what it
 * received, and when it closed (ms after opening).
 */
async function connect(from = '127.0.0.1') {
  const { port } = new URL(server.url);
  const socket = net.connect({ port: Number(port), host: '127.0.0.1', localAddress: from });
  const opened = Date.now();
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  const closed = new Promise<number>((resolve) => {
    socket.on('close', () => resolve(Date.now() - opened));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed, received: () => received };
}

/** Asks for the health check on `socket`, kept alive, and waits for its whole answer. */
async function askHealth(c: Awaited<ReturnType<typeof connect>>) {
  const before = c.received().length;
  c.socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
  await expect
    .poll(() => c.received().slice(before), { timeout: 5000, interval: 10 })
    .toMatch(/^HTTP\/1\.1 200[\s\S]*\r\n\r\n[\s\S]*\}$/);
}

/** `c` was closed by the server within a second, before a byte of an answer: refused at the cap. */
async function expectRefused(c: Awaited<ReturnType<typeof connect>>) {
  const closedIn = await Promise.race([
    c.closed,
    new Promise<number>((resolve) => setTimeout(() => resolve(-1), 1000)),
  ]);
  expect(closedIn).toBeGreaterThanOrEqual(0);
  expect(c.received()).toBe('');
}

const FROM_EVICTION = '127.0.0.3';
const FROM_KEEP_ALIVE = '127.0.0.4';

const slowBody = (socket: net.Socket) =>
  socket.write(
    'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      'Content-Length: 1000\r\n\r\n{"email":',
  );

describeServer('the server’s connection limits', () => {
  it(
    'cuts a request whose body never finishes at the request timeout',
    { timeout: 30_000 },
    async () => {
      const slow = await connect();
      slowBody(slow.socket);
      // A byte now and then keeps the socket busy, not idle: only the request timeout ends it.
      const drip = setInterval(() => slow.socket.write(' '), 200);
      try {
        const after = await Promise.race([
          slow.closed,
          new Promise<number>((resolve) => setTimeout(() => resolve(-1), 10_000)),
        ]);
        expect(after).toBeGreaterThan(1000);
        expect(after).toBeLessThan(5000);
        expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
      } finally {
        clearInterval(drip);
        slow.socket.destroy();
      }
    },
  );

  it(
    'closes one address’s connections beyond the cap, and serves it again after',
    { timeout: 30_000 },
    async () => {
      const held = await Promise.all(Array.from({ length: 4 }, () => connect()));
      await expectRefused(await connect());
      for (const c of held) c.socket.destroy();
      await Promise.all(held.map((c) => c.closed));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
    },
  );

  it(
    'lets a connection beyond the cap take the place of the longest-idle kept-alive one',
    { timeout: 30_000 },
    async () => {
      // Four kept-alive connections, each idle after an answer, the first idle the longest.
      const idle = [];
      for (let i = 0; i < 4; i++) {
        const c = await connect(FROM_EVICTION);
        await askHealth(c);
        idle.push(c);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const extra = await connect(FROM_EVICTION);
      await askHealth(extra);
      expect(await idle[0]!.closed).toBeGreaterThan(0);
      // The others stay open and usable; a fifth that finds them all busy is still refused.
      for (const c of idle.slice(1)) await askHealth(c);
      for (const c of [...idle.slice(1), extra]) slowBody(c.socket);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expectRefused(await connect(FROM_EVICTION));
      for (const c of [...idle, extra]) c.socket.destroy();
      await Promise.all([...idle, extra].map((c) => c.closed));
    },
  );

  it(
    'keeps an idle connection open for AYAH_KEEP_ALIVE_MS after its answer, then closes it',
    { timeout: 30_000 },
    async () => {
      const c = await connect(FROM_KEEP_ALIVE);
      await askHealth(c);
      const answeredAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await askHealth(c);
      const lastAnswerAt = Date.now();
      const closedAt = await c.closed.then(() => Date.now());
      expect(lastAnswerAt - answeredAt).toBeGreaterThanOrEqual(1200);
      // 2.5 s, not Node's own 5 s.
      expect(closedAt - lastAnswerAt).toBeGreaterThanOrEqual(2000);
      expect(closedAt - lastAnswerAt).toBeLessThan(4500);
    },
  );
});
