/**
 * A loopback server that speaks the OpenAI wire format, for the tutor's streaming tests:
 * `POST /v1/chat/completions` with `stream: true` answers SSE `data: {choices:[{delta:{content}}]}`
 * chunks and `data: [DONE]`; `/v1/embeddings` and `/v1/moderations` answer too. Each test says what
 * the next completion does (`script`), and can see the requests and whether the client hung up.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Script =
  | { kind: 'chunks'; chunks: string[]; delayMs?: number }
  /** Sends these chunks, then answers nothing more until the client gives up. */
  | { kind: 'stall'; chunks?: string[] }
  /** A 500 before any text. */
  | { kind: 'error'; status?: number }
  /** Some text, then the connection is destroyed mid-stream. */
  | { kind: 'break'; chunks: string[] };

export interface SeenRequest {
  path: string;
  body: Record<string, unknown>;
  authorization: string | undefined;
}

export class FakeOpenAI {
  url = '';
  readonly requests: SeenRequest[] = [];
  /** Completions whose client went away before the answer ended. */
  aborted = 0;
  private scripts: Script[] = [];
  /** What the next completion does when nothing was scripted. */
  fallback: Script = { kind: 'chunks', chunks: ['Hello', ' from', ' the', ' model.'] };
  /** Texts the moderation endpoint flags (substring match) and the category it names. */
  flagged: { text: string; category: string }[] = [];
  moderationStatus = 200;
  private server = createServer((req, res) => void this.handle(req, res));

  /** Queues what the next completion does. */
  script(...scripts: Script[]) {
    this.scripts.push(...scripts);
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  completions() {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions'));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const path = req.url ?? '';
    this.requests.push({ path, body, authorization: req.headers.authorization });

    if (path.endsWith('/embeddings')) return this.embeddings(body, res);
    if (path.endsWith('/moderations')) return this.moderations(body, res);
    if (!path.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const script = this.scripts.shift() ?? this.fallback;
    if (script.kind === 'error') {
      res.writeHead(script.status ?? 500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error' } }));
      return;
    }
    let finished = false;
    res.on('close', () => {
      if (!finished) this.aborted++;
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (content: string) =>
      res.write(
        `data: ${JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion.chunk',
          created: 1,
          model: String(body.model),
          choices: [{ index: 0, delta: { content }, finish_reason: null }],
        })}\n\n`,
      );
    const chunks = script.chunks ?? [];
    for (const chunk of chunks) {
      if (res.destroyed) return;
      send(chunk);
      if (script.kind === 'chunks' && script.delayMs)
        await new Promise((r) => setTimeout(r, script.delayMs));
    }
    if (script.kind === 'stall') return; // say nothing more; the client must give up
    if (script.kind === 'break') {
      res.destroy();
      return;
    }
    res.write(
      `data: ${JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion.chunk',
        created: 1,
        model: String(body.model),
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      })}\n\n`,
    );
    res.write('data: [DONE]\n\n');
    finished = true;
    res.end();
  }

  /** A tiny bag-of-letters embedding: texts sharing words come out close. */
  static embed(text: string): number[] {
    const v = new Array<number>(26).fill(0);
    for (const ch of text.toLowerCase()) {
      const i = ch.charCodeAt(0) - 97;
      if (i >= 0 && i < 26) v[i]! += 1;
    }
    return v;
  }

  private embeddings(body: Record<string, unknown>, res: ServerResponse) {
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        object: 'list',
        data: inputs.map((input, index) => ({
          object: 'embedding',
          index,
          embedding: FakeOpenAI.embed(String(input)),
        })),
        model: body.model,
        usage: { prompt_tokens: 1, total_tokens: 1 },
      }),
    );
  }

  private moderations(body: Record<string, unknown>, res: ServerResponse) {
    if (this.moderationStatus !== 200) {
      res.writeHead(this.moderationStatus).end();
      return;
    }
    const input = String(body.input);
    const hit = this.flagged.find((f) => input.includes(f.text));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'modr-test',
        results: [
          {
            flagged: Boolean(hit),
            categories: hit ? { [hit.category]: true } : { violence: false },
          },
        ],
      }),
    );
  }
}
