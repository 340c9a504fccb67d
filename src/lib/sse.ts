/**
 * A small Server-Sent Events reader, after the WHATWG "event stream interpretation": lines end in
 * CRLF, LF or CR (a CRLF may be split across chunks), `:` starts a comment, `data:` lines accumulate
 * and join with '\n', a blank line dispatches, and an unfinished event at the end is discarded.
 */

/** One dispatched event. `event` is 'message' when the server named none. */
export type SseMessage = {
  event: string;
  data: string;
  /** The last event id seen so far ('' when none). */
  id: string;
};

/** A push parser: feed it decoded text in any pieces, get back the events those pieces completed. */
export type SseParser = {
  feed(text: string): SseMessage[];
};

/** Creates a push parser for one stream. Decoding bytes is the caller's job (see `readSse`). */
export function createSseParser(): SseParser {
  let buffer = '';
  let skipLeadingLF = false;
  let atStart = true;
  let event = '';
  let data: string[] = [];
  let lastId = '';

  function line(text: string, out: SseMessage[]) {
    if (text === '') {
      if (data.length > 0)
        out.push({ event: event || 'message', data: data.join('\n'), id: lastId });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) lastId = value;
  }

  return {
    feed(text) {
      const out: SseMessage[] = [];
      if (atStart && text.length > 0) {
        atStart = false;
        if (text.startsWith('\uFEFF')) text = text.slice(1);
      }
      if (skipLeadingLF && text.startsWith('\n')) text = text.slice(1);
      if (text.length > 0) skipLeadingLF = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const ch = buffer[i];
        if (ch !== '\n' && ch !== '\r') continue;
        line(buffer.slice(start, i), out);
        if (ch === '\r') {
          if (i + 1 === buffer.length) skipLeadingLF = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
      return out;
    },
  };
}

/**
 * Reads a byte stream as SSE messages. Bytes are decoded as UTF-8 in stream mode, so a chunk may end
 * anywhere, even inside a character. When `signal` aborts, the reader is cancelled and the iteration
 * rejects with the abort reason; when the consumer stops early, the reader is cancelled too.
 */
export async function* readSse(
  stream: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SseMessage, void, undefined> {
  const reader = stream.getReader();
  const decoder = new TextDecoder('utf-8');
  const parser = createSseParser();
  let finished = false;
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    signal?.throwIfAborted();
    for (;;) {
      const { done, value } = await reader.read();
      // A cancel on abort ends the read as `done`; it must still surface as the abort.
      signal?.throwIfAborted();
      if (done) break;
      for (const message of parser.feed(decoder.decode(value, { stream: true }))) {
        yield message;
        signal?.throwIfAborted();
      }
    }
    finished = true;
    yield* parser.feed(decoder.decode());
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
