/**
 * A loopback server that speaks the OpenAI wire format, for the tutor's streaming tests:
 * `POST /v1/chat/completions` with `stream: true` answers SSE `data: {choices:[{delta:{content}}]}`
 * chunks and `data: [DONE]`; `/v1/embeddings` and `/v1/moderations` answer too. Each test says what
 * the next completion does (`script`), and can see the requests and whether the client hung up.
 *
 * Tool calls stream as real endpoints stream them: `delta.tool_calls` fragments, the first of each
 * call carrying `index`, `id`, `type` and `function.name`, its `function.arguments` split across the
 * following chunks, then `finish_reason: "tool_calls"`; the follow-up request carries the `tool`
 * messages. A model without tool support answers 400 to any request that sends `tools`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Script =
  /** Text in these chunks, `delayMs` after each; `startDelayMs` first (a model slow to begin). */
  | { kind: 'chunks'; chunks: string[]; delayMs?: number; startDelayMs?: number }
  /** Sends these chunks, then answers nothing more until the client gives up. */
  | { kind: 'stall'; chunks?: string[] }
  /** A 500 before any text. */
  | { kind: 'error'; status?: number }
  /** Some text, then the connection is destroyed mid-stream. */
  | { kind: 'break'; chunks: string[] }
  /** Tool calls (arguments as raw text, so a test can send broken JSON), after optional text. */
  | { kind: 'tools'; calls: ScriptedCall[]; chunks?: string[] }
  /** Decides from the request itself (e.g. the tool results it carries). */
  | { kind: 'respond'; to: (body: CompletionBody) => Script };

export interface ScriptedCall {
  name: string;
  /** The raw `function.arguments` text, sent in pieces of `pieceSize` characters. */
  arguments: string;
  pieceSize?: number;
}

/** What the fake reads of a chat completion request. */
export interface CompletionBody {
  model?: string;
  stream?: boolean;
  messages: WireMessage[];
  tools?: { type: string; function: { name: string } }[];
  tool_choice?: unknown;
  [key: string]: unknown;
}

export interface WireMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** What Ollama answers for a model without tool support (a 400, as vLLM and others answer too). */
export const NO_TOOLS_MESSAGE =
  'registry.ollama.ai/library/tiny-tutor:latest does not support tools';

export interface SeenRequest {
  path: string;
  body: Record<string, unknown>;
  authorization: string | undefined;
  /** When the request arrived and when its answer ended (ms since the epoch; 0 while open). */
  receivedAt: number;
  answeredAt: number;
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
  /** How long the embeddings endpoint takes to answer. */
  embeddingDelayMs = 0;
  /** Set: the model has no tool support, and any request that sends `tools` gets a 400. */
  refuseTools = false;
  /** How many requests were refused for sending tools. */
  toolRefusals = 0;
  private server = createServer((req, res) => void this.handle(req, res));

  /** Queues what the next completion does. */
  script(...scripts: Script[]) {
    this.scripts.push(...scripts);
  }

  /** How long an idle connection is kept for the client's next request (Node's default: 5 s). */
  keepIdleConnections(ms: number): this {
    this.server.keepAliveTimeout = ms;
    return this;
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

  /** Waits (up to `timeoutMs`) until more than `count` completions have been aborted by their client. */
  async abortedMoreThan(count: number, timeoutMs = 5000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (this.aborted <= count) {
      if (Date.now() > end) throw new Error(`no completion aborted within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  completions() {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions'));
  }

  /** The chat completion requests' bodies, typed. */
  completionBodies(): CompletionBody[] {
    return this.completions().map((r) => r.body as CompletionBody);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const path = req.url ?? '';
    const seen: SeenRequest = {
      path,
      body,
      authorization: req.headers.authorization,
      receivedAt: Date.now(),
      answeredAt: 0,
    };
    this.requests.push(seen);
    res.on('close', () => (seen.answeredAt = Date.now()));

    if (path.endsWith('/embeddings')) return this.embeddings(body, res);
    if (path.endsWith('/moderations')) return this.moderations(body, res);
    if (!path.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const request = body as CompletionBody;
    if (this.refuseTools && Array.isArray(request.tools) && request.tools.length > 0) {
      this.toolRefusals++;
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: NO_TOOLS_MESSAGE, type: 'api_error', param: null, code: null },
        }),
      );
      return;
    }
    let script = this.scripts.shift() ?? this.fallback;
    while (script.kind === 'respond') script = script.to(request);
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
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion.chunk',
          created: 1,
          model: String(body.model),
          choices: [{ index: 0, delta, finish_reason: finishReason }],
        })}\n\n`,
      );
    const send = (content: string) => chunk({ content });
    const chunks = script.chunks ?? [];
    if (script.kind === 'chunks' && script.startDelayMs)
      await new Promise((r) => setTimeout(r, script.startDelayMs));
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
    if (script.kind === 'tools') {
      script.calls.forEach((call, index) => {
        const id = `call_${this.requests.length}_${index}`;
        chunk({
          tool_calls: [
            { index, id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        });
        const size = call.pieceSize ?? 7;
        for (let at = 0; at < call.arguments.length; at += size)
          chunk({
            tool_calls: [{ index, function: { arguments: call.arguments.slice(at, at + size) } }],
          });
      });
    }
    chunk({}, script.kind === 'tools' ? 'tool_calls' : 'stop');
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

  private async embeddings(body: Record<string, unknown>, res: ServerResponse) {
    if (this.embeddingDelayMs > 0) await new Promise((r) => setTimeout(r, this.embeddingDelayMs));
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
