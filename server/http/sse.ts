/**
 * A `text/event-stream` answer written with as little work an event as can be: each event is one
 * string (`event: …\ndata: …\n\n`), the events sent in the same turn of the event loop go out as one
 * chunk, and that chunk is enqueued straight into the response body. Hono's `streamSSE` encoded and
 * wrote every event through a TransformStream and a second ReadableStream before the server read it,
 * and every event became a socket write of its own (bench:class's profile: one `writev` a chunk event,
 * the largest single cost of a class streaming at once, issue 26).
 *
 * Under the Node adapter, once the adapter has written the head, each chunk is written straight to
 * the Node response as a string, not encoded and passed through the body's reader (a promise and a
 * `Uint8Array` a chunk; bench:class's profile of 300 replies at once, issue 26). Until then (and
 * without a Node response, `app.request()`), chunks go into the body as before; the adapter writes
 * what it reads in the same turn it is enqueued, so the order holds.
 *
 * The wire is the same: a client reads the same events, in the same order.
 *
 * `pace` may hold an event back: it says how long after the stream's last write of such events it
 * may go out (0: in this turn, as above). Events sent meanwhile join it, and one that may not wait
 * takes them all out with it, in order. The chat paces its reply text when the process writes many
 * replies at once: a socket write a chunk was a fifth of its thread's busy time under a class's
 * 300 replies (issue 26), and text that arrives in 50 ms steps instead of 25 reads the same.
 */
import type { ServerResponse } from 'node:http';

import type { Context } from 'hono';

export interface EventSink {
  /** Queues one event (`data` is a line of text, e.g. JSON; a line break starts another data line). */
  send(event: string, data: string): void;
  /** Whether the client has gone (nothing sent after that is read). */
  readonly cancelled: boolean;
}

const encoder = new TextEncoder();

/**
 * Answers `c` with an event stream that `write` fills; the stream ends when `write` settles (`write`
 * handles its own failures: one that escapes is only logged). `onCancel` runs when the client goes
 * away before the end.
 */
export function eventStream(
  c: Context,
  write: (events: EventSink) => Promise<void>,
  onCancel: () => void,
  pace?: (event: string) => number,
): Response {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let pending = '';
  let scheduled: ReturnType<typeof setImmediate> | undefined;
  let held: ReturnType<typeof setTimeout> | undefined;
  // When paced events last went out, and whether any wait in `pending` now: a status written just
  // before never holds the first words back.
  let lastPaced = -Infinity;
  let pacedPending = false;
  let cancelled = false;
  let ended = false;

  const flush = () => {
    clearImmediate(scheduled);
    clearTimeout(held);
    scheduled = held = undefined;
    if (pending === '' || cancelled) return;
    if (pacedPending) lastPaced = performance.now();
    pacedPending = false;
    const text = pending;
    pending = '';
    // Straight to the socket once the head is out and nothing waits in the body (desiredSize 1:
    // its queue is empty), else through the body for the adapter to write.
    if (
      outgoing?.headersSent &&
      !outgoing.writableEnded &&
      !outgoing.destroyed &&
      controller.desiredSize === 1
    )
      outgoing.write(text);
    else controller.enqueue(encoder.encode(text));
  };

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      cancelled = true;
      pending = '';
      clearTimeout(held);
      if (!ended) onCancel();
    },
  });

  const sink: EventSink = {
    send(event, data) {
      if (cancelled || ended) return;
      if (/[\r\n]/.test(event)) throw new Error('an event name must not contain a line break');
      pending += `event: ${event}\ndata: ${data.split(/\r\n|\r|\n/).join('\ndata: ')}\n\n`;
      const step = pace?.(event) ?? 0;
      if (step > 0) pacedPending = true;
      if (scheduled) return;
      const wait = lastPaced + step - performance.now();
      if (step > 0 && wait > 0) {
        held ??= setTimeout(flush, wait);
        return;
      }
      // After this turn's I/O callbacks: the events they produce go out together (a held write
      // with them).
      scheduled = setImmediate(flush);
    },
    get cancelled() {
      return cancelled;
    },
  };

  void write(sink)
    .catch((error: unknown) => console.error('[sse] an event stream failed:', error))
    .finally(() => {
      flush();
      ended = true;
      if (!cancelled) controller.close();
    });

  return c.body(body, 200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
  });
}
