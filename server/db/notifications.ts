/**
 * Hearing `NOTIFY`: how a server learns of changes other servers (and this one) commit, so that what
 * it keeps in memory (the session cache) never outlives them.
 *
 * A listener is told two things: each payload, and whether it is *live*, i.e. hears every notification
 * from now on. While it is not live it must trust nothing it learned before (notifications may have
 * been missed), and it is told `live(false)` whenever that starts.
 *
 * - PGlite is one backend in this process: `LISTEN` on it is live for good, and a notification is
 *   handed over (as a microtask) while the committing query's answer is read, before its caller goes
 *   on; from its worker thread (pglite-thread.ts), as a message posted before that answer's. Caught up
 *   at every moment.
 * - PostgreSQL: one dedicated connection outside the pool. It is live once `LISTEN` holds and a probe
 *   proves it hears: it notifies a channel of its own and must hear that before the statement's
 *   answer (a backend delivers its own notifications at commit). Behind a pooler in transaction mode
 *   `LISTEN` and later statements reach different backends, the probe goes unheard, and the
 *   connection never counts as live (sessions are then read from the database every time). The probe
 *   is repeated as a heartbeat every `HEARTBEAT_MS`. When the connection fails, or a probe or a
 *   catch-up goes unanswered for `QUERY_TIMEOUT_MS`, listeners hear `live(false)` and it reconnects
 *   with backoff. `caughtUp()` is a round trip on that connection: the backend sends every
 *   notification committed before it, before its answer (it reads its notification queue on the way
 *   to idle).
 */
import { randomBytes } from 'node:crypto';

import pg from 'pg';

import type { PgliteHandle } from './pglite-thread';

export interface ChannelListener {
  notify(payload: string): void;
  live(isLive: boolean): void;
}

export interface Notifications {
  /** Starts hearing `channel` (a plain lower-case identifier). */
  listen(channel: string, listener: ChannelListener): void;
  /** Resolves once every notification committed before the call has reached its listeners. */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

const HEARTBEAT_MS = 10_000;
const QUERY_TIMEOUT_MS = 5_000;
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 30_000;

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

function checkChannel(channel: string) {
  if (!CHANNEL.test(channel)) throw new Error(`Not a plain channel name: ${channel}`);
}

export function pgliteNotifications(client: Pick<PgliteHandle, 'listen'>): Notifications {
  return {
    listen(channel, listener) {
      checkChannel(channel);
      client
        .listen(channel, (payload) => listener.notify(payload))
        .then(() => listener.live(true))
        .catch((error: unknown) =>
          console.error(`[db] LISTEN ${channel} failed:`, (error as Error).message),
        );
    },
    caughtUp: async () => {},
    close: async () => {},
  };
}

export function postgresNotifications(
  connectionString: string,
  logger: Pick<Console, 'warn' | 'error'> = console,
): Notifications {
  const listeners = new Map<string, Set<ChannelListener>>();
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let retryMs = RETRY_MIN_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | null = null;
  /** The connection's queries, one after another (pg no longer queues them for us). */
  let queue: Promise<unknown> = Promise.resolve();
  /** A catch-up queued and not yet sent: everyone who asks before it is sent can share it. */
  let unsent: Promise<void> | null = null;
  /** This process's own channel, for the probes that prove the connection hears. */
  const probeChannel = `ayah_probe_${randomBytes(8).toString('hex')}`;
  let probesSent = 0;
  let lastProbeHeard = '';

  function inTurn<T>(on: pg.Client, run: () => Promise<T>): Promise<T> {
    const turn = queue.then(run, run);
    queue = turn.catch(() => {});
    return turn.catch((error: Error) => {
      lost(on, error.message);
      throw error;
    });
  }

  /** Notifies the probe channel on `on` and fails unless `on` heard it before the answer. */
  async function probe(on: pg.Client) {
    const sent = String(++probesSent);
    await inTurn(on, () => on.query('select pg_notify($1, $2)', [probeChannel, sent]));
    if (lastProbeHeard !== sent) {
      const why = 'it does not hear its own NOTIFY (a pooler in transaction mode?)';
      lost(on, why);
      throw new Error(why);
    }
  }

  const everyListener = () => [...listeners.values()].flatMap((set) => [...set]);

  function setLive(next: boolean) {
    if (live === next) return;
    live = next;
    for (const listener of everyListener()) listener.live(next);
  }

  /** The connection is gone or in doubt: forget it, tell listeners, and try again later. */
  function lost(failed: pg.Client, why: string) {
    if (client !== failed) return;
    client = null;
    clearInterval(heartbeat);
    setLive(false);
    failed.removeAllListeners('notification');
    failed.on('error', () => {});
    void failed.end().catch(() => {});
    if (closed) return;
    logger.warn(`[db] listening connection lost (${why}); again in ${retryMs} ms`);
    retryTimer = setTimeout(() => void connect(), retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }

  function connect(): Promise<void> {
    if (closed || client || listeners.size === 0) return Promise.resolve();
    connecting ??= (async () => {
      queue = Promise.resolve();
      unsent = null;
      const next = new pg.Client({
        connectionString,
        keepAlive: true,
        connectionTimeoutMillis: QUERY_TIMEOUT_MS,
        query_timeout: QUERY_TIMEOUT_MS,
        application_name: 'ayah-listen',
      });
      client = next;
      next.on('error', (error) => lost(next, error.message));
      next.on('end', () => lost(next, 'connection ended'));
      next.on('notification', (message) => {
        if (message.channel === probeChannel) {
          lastProbeHeard = message.payload ?? '';
          return;
        }
        for (const listener of listeners.get(message.channel) ?? []) {
          listener.notify(message.payload ?? '');
        }
      });
      try {
        await next.connect();
        for (const channel of [probeChannel, ...listeners.keys()])
          await inTurn(next, () => next.query(`LISTEN ${channel}`));
        await probe(next);
      } catch (error) {
        lost(next, (error as Error).message);
        return;
      }
      if (client !== next) return;
      retryMs = RETRY_MIN_MS;
      heartbeat = setInterval(() => void probe(next).catch(() => {}), HEARTBEAT_MS);
      heartbeat.unref();
      setLive(true);
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  return {
    listen(channel, listener) {
      checkChannel(channel);
      const known = listeners.get(channel);
      if (known) {
        known.add(listener);
        if (live) listener.live(true);
        return;
      }
      listeners.set(channel, new Set([listener]));
      // A new channel on a live connection: listen on it too, and say live once it holds.
      const current = live ? client : null;
      if (current) {
        inTurn(current, () => current.query(`LISTEN ${channel}`))
          .then(() => listener.live(true))
          .catch(() => {});
      } else {
        void connect();
      }
    },
    caughtUp() {
      const current = live ? client : null;
      // Not live: listeners trust nothing, so there is nothing to wait for.
      if (!current) return Promise.resolve();
      if (unsent) return unsent;
      const barrier: Promise<void> = inTurn(current, () => {
        if (unsent === barrier) unsent = null;
        return current.query('select 1');
      }).then(
        () => {},
        () => {}, // lost: listeners were told, and trust nothing now
      );
      unsent = barrier;
      return barrier;
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      await connecting;
      const current = client;
      if (current) {
        client = null;
        clearInterval(heartbeat);
        setLive(false);
        current.removeAllListeners('end');
        await current.end().catch(() => {});
      }
    },
  };
}
