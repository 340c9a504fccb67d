/**
 * The tutor's model over any OpenAI-compatible endpoint, through the Vercel AI SDK. The SDK ends a
 * failed stream quietly and reports the failure only to `onError` (or as an `error` part): every way a
 * reply can end early is turned into a `TutorError` here, so the chat route has one thing to catch.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, embed, stepCountIs, streamText } from 'ai';

import type { LlmSettings } from '../config';
import { mathTools } from './tools';

/** At most this many tool rounds in one reply; the round after them must answer in text. */
export const MAX_TOOL_ROUNDS = 4;
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

/** Streams text; rejects with a TutorError. Leaving the loop early cancels the upstream request. */
export type ReplyStream = (
  input: { system: string; messages: Turn[] },
  signal: AbortSignal,
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

export function createLlmClient(settings: LlmSettings): LlmClient {
  if (!settings.baseUrl || !settings.model)
    return { stream: null, embed: null, embeddingModel: null };
  const provider = createOpenAICompatible({
    name: 'ayah-llm',
    baseURL: settings.baseUrl,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  });
  const model = provider.chatModel(settings.model);
  /** Set once this endpoint has refused tool calling: later replies go without tools. */
  let toolsRefused = false;

  async function* stream(
    input: { system: string; messages: Turn[] },
    signal: AbortSignal,
  ): AsyncGenerator<ReplyPiece, void, undefined> {
    for (;;) {
      const withTools = !toolsRefused;
      let wrote = false;
      try {
        for await (const piece of attempt(input, signal, withTools)) {
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
    let stall = setTimeout(expire, settings.stallMs);
    const rearm = () => {
      clearTimeout(stall);
      stall = setTimeout(expire, settings.stallMs);
    };
    let failure: unknown = undefined;
    try {
      const result = streamText({
        model,
        system: input.system,
        messages: input.messages,
        abortSignal: controller.signal,
        maxRetries: 0,
        ...(withTools
          ? {
              tools: mathTools,
              stopWhen: stepCountIs(MAX_TOOL_ROUNDS + 1),
              // The last round answers in text: no more tool calls.
              prepareStep: ({ stepNumber }: { stepNumber: number }) =>
                stepNumber >= MAX_TOOL_ROUNDS ? { toolChoice: 'none' as const } : {},
            }
          : {}),
        onError: ({ error }) => {
          failure ??= error;
        },
      });
      let checking = false;
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') {
          rearm();
          checking = false;
          if (part.text) yield part.text;
        } else if (
          part.type === 'tool-input-start' ||
          part.type === 'tool-call' ||
          part.type === 'tool-result' ||
          part.type === 'tool-error'
        ) {
          rearm();
          if (!checking) {
            checking = true;
            yield { status: CHECKING_STATUS };
          }
        } else if (part.type === 'error') {
          failure ??= part.error;
          break;
        } else if (part.type === 'abort') {
          break;
        }
      }
    } catch (error) {
      failure ??= error;
    } finally {
      clearTimeout(total);
      clearTimeout(stall);
      signal.removeEventListener('abort', forward);
      // Also reached when the consumer stops reading: the upstream request is cancelled.
      controller.abort();
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
