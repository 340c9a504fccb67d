/**
 * Limits on the Node server itself (red team round 3: slow-body connections were held 300 s, with no
 * cap): a request must arrive whole, headers and body, within `requestTimeoutMs` (Node answers 408
 * and closes), and one client address holds at most `perAddress` open connections (more are closed
 * at once). Behind a proxy every connection comes from the proxy: set the cap to 0 there.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** The Node server's options for `serve({ serverOptions })`: the timeouts and how often they are checked. */
export function connectionOptions(requestTimeoutMs: number) {
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(requestTimeoutMs, 30_000),
    // Node checks both this often (its default, 30 s, is longer than the timeouts it checks).
    connectionsCheckingInterval: Math.min(1000, requestTimeoutMs),
  };
}

/** Closes a client address's connections beyond `perAddress` as they open (0: no cap). */
export function capConnectionsPerAddress(server: Server, perAddress: number) {
  if (perAddress <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
