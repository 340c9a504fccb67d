/**
 * Limits on the Node server itself (red team round 3: slow-body connections were held 300 s, with no
 * cap): a request must arrive whole, headers and body, within `requestTimeoutMs` (Node answers 408
 * and closes), and one client address holds at most `perAddress` open connections (beyond it, a new
 * one takes an idle kept-alive one's place, else it is closed at once). Behind a proxy every
 * connection comes from the proxy: set the cap to 0 there.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The Node server's options for `serve({ serverOptions })`: the timeouts, how often they are
 * checked, and how long an idle kept-alive connection stays open (config.ts, `KEEP_ALIVE_MS`).
 */
export function connectionOptions({
  requestTimeoutMs,
  keepAliveMs,
}: {
  requestTimeoutMs: number;
  keepAliveMs: number;
}) {
  return {
    keepAliveTimeout: keepAliveMs,
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(requestTimeoutMs, 30_000),
    // Node checks both this often (its default, 30 s, is longer than the timeouts it checks).
    connectionsCheckingInterval: Math.min(1000, requestTimeoutMs),
  };
}

/** What the cap knows of one open connection. */
interface Held {
  /** Requests it is serving now (a streaming reply holds one until its end). */
  active: number;
  /** When its last response ended; null until it has served one. */
  idleSince: number | null;
}

/**
 * Holds each client address to `perAddress` open connections (0: no cap). A connection beyond the
 * cap takes the place of that address's longest-idle kept-alive connection (one that has answered a
 * request and waits for the next), which is closed; only when all of them are busy or have not yet
 * sent a whole request is the new one closed instead. A school behind one NAT address holds a few
 * connections a browser, most of them idle between requests: the cap stops one machine from holding
 * more than `perAddress` at once, without refusing a student's send because classmates' browsers
 * keep idle connections open (a browser that finds its idle connection closed opens another, as
 * it does after Node's own keep-alive timeout).
 */
export function capConnectionsPerAddress(server: Server, perAddress: number) {
  if (perAddress <= 0) return;
  const open = new Map<string, Map<Socket, Held>>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    let mine = open.get(address);
    if (!mine) open.set(address, (mine = new Map()));
    if (mine.size >= perAddress) {
      const idle = longestIdle(mine);
      if (!idle) {
        socket.destroy();
        return;
      }
      mine.delete(idle);
      idle.destroy();
    }
    const held: Held = { active: 0, idleSince: null };
    mine.set(socket, held);
    socket.once('close', () => {
      const left = open.get(address);
      if (!left?.delete(socket)) return;
      if (left.size === 0) open.delete(address);
    });
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    const held = open.get(socket.remoteAddress ?? '')?.get(socket);
    if (!held) return;
    held.active += 1;
    response.once('close', () => {
      held.active -= 1;
      held.idleSince = performance.now();
    });
  });
}

/** The connection of `held` idle the longest after a response, or null when none is idle. */
function longestIdle(held: Map<Socket, Held>): Socket | null {
  let found: Socket | null = null;
  let since = Infinity;
  for (const [socket, { active, idleSince }] of held) {
    if (active === 0 && idleSince !== null && idleSince < since) {
      found = socket;
      since = idleSince;
    }
  }
  return found;
}
