/**
 * The tutor's model over any OpenAI-compatible endpoint. The reply streams through a lean client of
 * the wire protocol (completions.ts: the AI SDK's per-chunk validation and stream hops were a third of
 * the app's CPU a stream under a class's load, issue 26), with the maths tools run here between
 * rounds; embeddings go through the Vercel AI SDK. Every way a reply can end early is turned into a
 * `TutorError` here, so the chat route has one thing to catch.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, asSchema, embed } from 'ai';

import type { LlmSettings } from '../config';
import type {
  CompletionRequest,
  GiveWay,
  WireMessage,
  WireTool,
  WireToolCall,
} from './completions';
import { streamCompletion } from './completions';
import { mathTools, runMathTool } from './tools';

/** At most this many tool rounds in one reply; the round after them must answer in text. */
export const MAX_TOOL_ROUNDS = 4;
/** The reason the model request of a reply is aborted with once the reply has ended. */
const REPLY_ENDED = new Error('the reply ended');

/** What the student sees while the tutor checks its maths. */
export const CHECKING_STATUS = 'Checking the maths…';

export type TutorFailure = 'upstream' | 'timeout' | 'aborted';

export class TutorError extends Error {
  constructor(
    readonly kind: TutorFailure,
    options?: { cause?: unknown },
  ) {
    super(`tutor reply ${kind}`, options);
    this.name = 'TutorError';
  }
}

import type { Turn } from './turn';

export type { Turn };

/** A piece of the reply's text, or a short status while the tutor works (not part of the reply). */
export type ReplyPiece = string | { status: string };

/**
 * Streams text; rejects with a TutorError. Leaving the loop early cancels the upstream request.
 * `giveWay`: when the reply waits before it reads more of the model (completions.ts).
 */
export type ReplyStream = (
  input: { system: string; messages: Turn[] },
  signal: AbortSignal,
  giveWay?: GiveWay,
) => AsyncGenerator<ReplyPiece, void, undefined>;

/** Whether an error is an endpoint refusing tool calling (a 400 that names tools or tool_choice). */
export function refusesTools(error: unknown): boolean {
  if (!APICallError.isInstance(error) || error.statusCode !== 400) return false;
  return /tool/i.test(`${error.message} ${error.responseBody ?? ''}`);
}

export interface LlmClient {
  /** The model that answers, or null: the offline coach answers instead. */
  stream: ReplyStream | null;
  /** Embeds text for learning memory, or null when no embedding model is configured. */
  embed: ((text: string, signal?: AbortSignal) => Promise<number[]>) | null;
  embeddingModel: string | null;
}

type MathToolName = keyof typeof mathTools;
/** A tool's input schema, with the JSON Schema and the check the AI SDK made for it. */
const schemaOf = (name: MathToolName) =>
  asSchema(mathTools[name].inputSchema as Parameters<typeof asSchema>[0]);

/** The tools as the wire offers them: their JSON Schemas, made once. */
let offered: WireTool[] | null = null;
function wireTools(): WireTool[] {
  offered ??= (Object.keys(mathTools) as MathToolName[]).map((name) => ({
    type: 'function' as const,
    function: {
      name,
      ...(mathTools[name].description ? { description: mathTools[name].description } : {}),
      parameters: schemaOf(name).jsonSchema,
    },
  }));
  return offered;
}

/**
 * Runs one tool call: its arguments parsed and checked against the tool's schema, then the tool. The
 * answer is what the model reads (JSON of the result, or the error text when the call cannot run), and
 * the arguments as the follow-up request repeats them (JSON, as the AI SDK repeats them).
 */
async function runTool(
  call: WireToolCall,
  timeoutMs: number,
): Promise<{ content: string; arguments: string }> {
  const { name, arguments: raw } = call.function;
  let parsed: unknown;
  try {
    parsed = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return {
      content: `Invalid input for tool ${name}: the arguments are not valid JSON.`,
      arguments: JSON.stringify(raw),
    };
  }
  const args = JSON.stringify(parsed);
  if (!Object.hasOwn(mathTools, name))
    return {
      content: `Error: no such tool ${JSON.stringify(name)}; the tools are ${Object.keys(mathTools).join(', ')}.`,
      arguments: args,
    };
  const checked = await schemaOf(name as MathToolName).validate!(parsed);
  if (!checked.success)
    return {
      content: `Invalid input for tool ${name}: ${checked.error.message}`,
      arguments: args,
    };
  try {
    const result = await runMathTool(name as MathToolName, checked.value, timeoutMs);
    return { content: JSON.stringify(result), arguments: args };
  } catch (error) {
    return { content: `Error: tool ${name} failed: ${(error as Error).message}`, arguments: args };
  }
}

export function createLlmClient(settings: LlmSettings): LlmClient {
  if (!settings.baseUrl || !settings.model)
    return { stream: null, embed: null, embeddingModel: null };
  const provider = createOpenAICompatible({
    name: 'ayah-llm',
    baseURL: settings.baseUrl,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  });
  /** Set once this endpoint has refused tool calling: later replies go without tools. */
  let toolsRefused = false;

  async function* stream(
    input: { system: string; messages: Turn[] },
    signal: AbortSignal,
    giveWay?: GiveWay,
  ): AsyncGenerator<ReplyPiece, void, undefined> {
    for (;;) {
      const withTools = !toolsRefused;
      let wrote = false;
      try {
        for await (const piece of attempt(input, signal, withTools, giveWay)) {
          wrote = true;
          yield piece;
        }
        return;
      } catch (error) {
        // The refusal comes before any text: remember it for this endpoint and answer without tools.
        if (withTools && !wrote && error instanceof TutorError && refusesTools(error.cause)) {
          toolsRefused = true;
          continue;
        }
        throw error;
      }
    }
  }

  async function* attempt(
    input: { system: string; messages: Turn[] },
    signal: AbortSignal,
    withTools: boolean,
    giveWay: GiveWay | undefined,
  ): AsyncGenerator<ReplyPiece, void, undefined> {
    const controller = new AbortController();
    let timedOut = false;
    const expire = () => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    };
    const forward = () => controller.abort(signal.reason);
    if (signal.aborted) throw new TutorError('aborted');
    signal.addEventListener('abort', forward, { once: true });
    const total = setTimeout(expire, settings.timeoutMs);
    const stall = setTimeout(expire, settings.stallMs);
    // Once a chunk: the same timer starts again (no new timer a chunk).
    const rearm = () => void stall.refresh();
    let failure: unknown = undefined;
    try {
      const messages: WireMessage[] = [
        { role: 'system', content: input.system },
        ...input.messages.map((m) => ({ role: m.role, content: m.content })),
      ];
      let checking = false;
      for (let round = 0; ; round++) {
        let text = '';
        let finish: { toolCalls: WireToolCall[] } | null = null;
        const request: CompletionRequest = {
          model: settings.model!,
          messages,
          ...(withTools
            ? {
                tools: wireTools(),
                // The last round answers in text: no more tool calls.
                ...(round >= MAX_TOOL_ROUNDS ? { tool_choice: 'none' as const } : {}),
              }
            : {}),
        };
        for await (const part of streamCompletion(
          settings.baseUrl!,
          settings.apiKey,
          request,
          controller.signal,
          giveWay,
        )) {
          rearm();
          if (part.type === 'text') {
            checking = false;
            text += part.text;
            yield part.text;
          } else if (part.type === 'tool-start') {
            if (!checking) {
              checking = true;
              yield { status: CHECKING_STATUS };
            }
          } else finish = part;
        }
        const calls = finish?.toolCalls ?? [];
        if (!withTools || calls.length === 0 || round >= MAX_TOOL_ROUNDS) break;
        if (!checking) {
          checking = true;
          yield { status: CHECKING_STATUS };
        }
        // The calls run side by side; each answers (an error the model reads when it cannot run).
        const results = await Promise.all(
          calls.map((call) => runTool(call, settings.toolTimeoutMs)),
        );
        rearm();
        messages.push({
          role: 'assistant',
          content: text,
          tool_calls: calls.map((call, i) => ({
            ...call,
            function: { ...call.function, arguments: results[i]!.arguments },
          })),
        });
        calls.forEach((call, i) =>
          messages.push({ role: 'tool', tool_call_id: call.id, content: results[i]!.content }),
        );
      }
    } catch (error) {
      failure ??= error;
    } finally {
      clearTimeout(total);
      clearTimeout(stall);
      signal.removeEventListener('abort', forward);
      // Also reached when the consumer stops reading: the upstream request is cancelled. With a
      // reason made once: without one, every reply's end made a DOMException and its stack trace.
      controller.abort(REPLY_ENDED);
    }
    if (timedOut) throw new TutorError('timeout', { cause: failure });
    if (signal.aborted) throw new TutorError('aborted', { cause: failure });
    if (failure !== undefined) throw new TutorError('upstream', { cause: failure });
  }

  const embeddingModelId = settings.embeddingModel;
  return {
    stream,
    embeddingModel: embeddingModelId,
    embed: embeddingModelId
      ? async (text, signal) => {
          const { embedding } = await embed({
            model: provider.embeddingModel(embeddingModelId),
            value: text,
            maxRetries: 0,
            abortSignal: signal ?? AbortSignal.timeout(settings.timeoutMs),
          });
          return embedding;
        }
      : null,
  };
}
