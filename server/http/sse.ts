/**
 * A `text/event-stream` answer written with as little work an event as can be: each event is one
 * string (`event: …\ndata: …\n\n`), the events sent in the same turn of the event loop go out as one
 * chunk, and that chunk is enqueued straight into the response body. Hono's `streamSSE` encoded and
 * wrote every event through a TransformStream and a second ReadableStream before the server read it,
 * and every event became a socket write of its own (bench:class's profile: one `writev` a chunk event,
 * the largest single cost of a class streaming at once, issue 26).
 *
 * The wire is the same: a client reads the same events, in the same order.
 */
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
): Response {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let pending = '';
  let scheduled = false;
  let cancelled = false;
  let ended = false;

  const flush = () => {
    scheduled = false;
    if (pending === '' || cancelled) return;
    const chunk = encoder.encode(pending);
    pending = '';
    controller.enqueue(chunk);
  };

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      cancelled = true;
      pending = '';
      if (!ended) onCancel();
    },
  });

  const sink: EventSink = {
    send(event, data) {
      if (cancelled || ended) return;
      if (/[\r\n]/.test(event)) throw new Error('an event name must not contain a line break');
      pending += `event: ${event}\ndata: ${data.split(/\r\n|\r|\n/).join('\ndata: ')}\n\n`;
      if (!scheduled) {
        scheduled = true;
        // After this turn's I/O callbacks: the events they produce go out together.
        setImmediate(flush);
      }
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
