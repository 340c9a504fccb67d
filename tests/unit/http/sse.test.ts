import { describe, expect, it } from 'vitest';

import { createSseParser, readSse, type SseMessage } from '../../../src/lib/sse';

const encoder = new TextEncoder();

function parseAll(...pieces: string[]): SseMessage[] {
  const parser = createSseParser();
  return pieces.flatMap((piece) => parser.feed(piece));
}

/** A byte stream of `chunks`; left open when `close` is false, as a live answer would be. */
function streamOf(chunks: Uint8Array[], close = true) {
  let cancelled: unknown = 'not cancelled';
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (close) controller.close();
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  return { stream, cancelled: () => cancelled };
}

async function collect(stream: ReadableStream<Uint8Array>, signal?: AbortSignal) {
  const out: SseMessage[] = [];
  for await (const message of readSse(stream, signal)) out.push(message);
  return out;
}

describe('createSseParser', () => {
  it('dispatches on a blank line, with event, data and id', () => {
    expect(parseAll('event: chunk\ndata: "a"\nid: 7\n\n')).toEqual([
      { event: 'chunk', data: '"a"', id: '7' },
    ]);
  });

  it("names an unnamed event 'message' and joins multi-line data with \\n", () => {
    expect(parseAll('data: one\ndata: two\ndata\n\n')).toEqual([
      { event: 'message', data: 'one\ntwo\n', id: '' },
    ]);
  });

  it('accepts CRLF, LF and CR line ends, even mixed', () => {
    const expected = [
      { event: 'a', data: '1', id: '' },
      { event: 'b', data: '2', id: '' },
      { event: 'c', data: '3', id: '' },
    ];
    expect(
      parseAll('event: a\r\ndata: 1\r\n\r\nevent: b\ndata: 2\n\nevent: c\rdata: 3\r\r'),
    ).toEqual(expected);
  });

  it('treats a CRLF split across pieces as one line end', () => {
    expect(parseAll('data: x\r', '\n', '\r', '\n')).toEqual([
      { event: 'message', data: 'x', id: '' },
    ]);
    expect(parseAll('data: x\r', '', '\ndata: y\r\n\r\n')).toEqual([
      { event: 'message', data: 'x\ny', id: '' },
    ]);
  });

  it('ignores comments, unknown fields and events without data', () => {
    expect(parseAll(': ping\n\nretry: 10\nfoo: bar\n\nevent: empty\n\ndata: z\n\n')).toEqual([
      { event: 'message', data: 'z', id: '' },
    ]);
  });

  it('strips exactly one leading space of a value, and a leading BOM', () => {
    expect(parseAll('\uFEFFdata:  two spaces\ndata:none\n\n')).toEqual([
      { event: 'message', data: ' two spaces\nnone', id: '' },
    ]);
  });

  it('resets the event name after each dispatch and keeps the last id', () => {
    expect(parseAll('event: a\nid: 1\ndata: x\n\ndata: y\n\n').map((m) => [m.event, m.id])).toEqual(
      [
        ['a', '1'],
        ['message', '1'],
      ],
    );
  });

  it('holds an unfinished event until its blank line', () => {
    const parser = createSseParser();
    expect(parser.feed('event: chunk\ndata: "he')).toEqual([]);
    expect(parser.feed('llo"\n')).toEqual([]);
    expect(parser.feed('\n')).toEqual([{ event: 'chunk', data: '"hello"', id: '' }]);
  });
});

describe('readSse', () => {
  const text =
    ': hello\r\nevent: chunk\r\ndata: "Hé"\r\n\r\nevent: chunk\ndata: "llo 😀 ∑"\n\n' +
    'event: done\rdata: {"ok":true}\r\r';
  const bytes = encoder.encode(text);
  const expected = [
    { event: 'chunk', data: '"Hé"', id: '' },
    { event: 'chunk', data: '"llo 😀 ∑"', id: '' },
    { event: 'done', data: '{"ok":true}', id: '' },
  ];

  it('reads the same events wherever the bytes are split, even inside a character', async () => {
    for (let offset = 0; offset <= bytes.length; offset++) {
      const { stream } = streamOf([bytes.slice(0, offset), bytes.slice(offset)]);
      expect(await collect(stream), `split at ${offset}`).toEqual(expected);
    }
  });

  it('reads the same events from one byte at a time', async () => {
    const { stream } = streamOf([...bytes].map((byte) => Uint8Array.of(byte)));
    expect(await collect(stream)).toEqual(expected);
  });

  it('discards an event the stream ends inside', async () => {
    const { stream } = streamOf([encoder.encode('data: a\n\ndata: b\n')]);
    expect(await collect(stream)).toEqual([{ event: 'message', data: 'a', id: '' }]);
  });

  it('cancels the stream when the consumer stops early', async () => {
    const { stream, cancelled } = streamOf([encoder.encode('data: a\n\ndata: b\n\n')], false);
    for await (const message of readSse(stream)) {
      expect(message.data).toBe('a');
      break;
    }
    expect(cancelled()).toBeUndefined();
  });

  it('rejects with the abort reason and cancels the stream when the signal aborts', async () => {
    let cancelReason: unknown = 'not cancelled';
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: a\n\n'));
      },
      cancel(reason) {
        cancelReason = reason;
      },
    });
    const controller = new AbortController();
    const iterator = readSse(stream, controller.signal);
    expect((await iterator.next()).value).toMatchObject({ data: 'a' });
    const pending = iterator.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancelReason).toBe(controller.signal.reason);
  });

  it('rejects at once when the signal has already aborted', async () => {
    const { stream } = streamOf([encoder.encode('data: a\n\n')]);
    await expect(collect(stream, AbortSignal.abort())).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
