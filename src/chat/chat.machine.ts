import { fromPromise } from 'xstate';

import type { ChatAdapter } from './chat.adapter';
import { chatSetup } from './chat.setup';
import { browserChatStore, type ChatStore } from './chat.store';
import { requestBody } from './chat.thread';

/**
 * The conversation with Ayah (spec section 4, "Chat flow"): opening or restoring a session, a new
 * conversation, sending, streaming, the non-streaming fallback shown as a simulated stream, failure;
 * and beyond the spec, stop and retry.
 */
export const chatMachine = chatSetup.createMachine({
  id: 'chat',
  context: ({ input }) => ({
    userId: input.userId ?? null,
    sessionId: input.sessionId ?? '',
    threadId: null,
    title: null,
    messages: [],
    draft: '',
    failed: null,
    reveal: null,
    dashboardData: input.dashboardData ?? {},
    nextId: 1,
  }),
  initial: 'starting',
  on: {
    // Typing beyond the limit is refused, with a toast.
    'draft.change': [{ guard: 'fitsLimit', actions: 'setDraft' }, { actions: 'notifyTooLong' }],
    'dashboard.change': { actions: 'setDashboardData' },
    'session.new': { target: '.newConversation' },
    'session.open': { guard: 'isAnotherSession', target: '.opening', actions: 'openSession' },
  },
  states: {
    starting: {
      always: [
        { guard: 'hasSessionParam', target: 'opening' },
        { guard: 'hasUser', target: 'restoring' },
        { target: 'newConversation' },
      ],
    },
    /** No `sessionId` in the URL: the user's last conversation is reopened, or a new one starts quietly. */
    restoring: {
      tags: ['loading'],
      initial: 'lookingUp',
      states: {
        lookingUp: {
          invoke: {
            src: 'loadStoredChat',
            input: ({ context }) => ({ userId: context.userId ?? '' }),
            onDone: [
              {
                guard: { type: 'isRestorable', params: ({ event }) => event.output },
                target: 'loading',
                actions: { type: 'restoreStored', params: ({ event }) => event.output },
              },
              { target: '#chat.newConversation' },
            ],
            onError: '#chat.newConversation',
          },
        },
        loading: {
          invoke: {
            src: 'getSession',
            input: ({ context }) => ({ sessionId: context.sessionId }),
            onDone: [
              {
                guard: { type: 'hasMessages', params: ({ event }) => event.output },
                target: '#chat.ready',
                actions: [
                  { type: 'showMessages', params: ({ event }) => event.output },
                  'setSessionParam',
                  'saveChat',
                ],
              },
              // Nothing worth reopening: an empty session starts over.
              { target: '#chat.newConversation' },
            ],
            onError: '#chat.newConversation',
          },
        },
      },
    },
    /** Opening the `sessionId` of the URL: 'Loading conversation...'. */
    opening: {
      tags: ['loading'],
      invoke: {
        src: 'getSession',
        input: ({ context }) => ({ sessionId: context.sessionId }),
        onDone: [
          {
            guard: { type: 'hasMessages', params: ({ event }) => event.output },
            target: 'ready',
            actions: [{ type: 'showMessages', params: ({ event }) => event.output }, 'saveChat'],
          },
          {
            target: 'ready',
            actions: [
              { type: 'showWelcome', params: ({ event }) => event.output },
              { type: 'notifyStarted', params: ({ event }) => event.output },
              'saveChat',
            ],
          },
        ],
        onError: { target: 'newConversation', actions: 'notifyNotFound' },
      },
    },
    /** A fresh client id; thread, messages, count, stored state and the URL parameter cleared. */
    newConversation: {
      entry: ['startNewConversation', 'forgetChat', 'clearSessionParam'],
      always: 'ready',
    },
    ready: {
      on: {
        'message.send': { guard: 'canSend', target: 'replying', actions: 'sendDraft' },
        'message.retry': { guard: 'canRetry', target: 'replying', actions: 'retryReply' },
      },
    },
    /** A reply is awaited: input and send are disabled, Stop is offered. */
    replying: {
      tags: ['busy'],
      initial: 'stream',
      on: {
        // The partial answer stays, marked stopped; leaving aborts the request.
        'message.stop': { target: 'ready', actions: 'stopReply' },
      },
      states: {
        stream: {
          initial: 'waiting',
          invoke: {
            src: 'sendStream',
            input: ({ context, self }) => ({
              body: requestBody(context),
              onChunk: (text: string) => self.send({ type: 'stream.chunk', text }),
              onStatus: (text: string) => self.send({ type: 'stream.status', text }),
            }),
            onDone: {
              target: 'received',
              actions: [
                { type: 'completeReply', params: ({ event }) => event.output },
                { type: 'announceReply', params: ({ event }) => event.output },
                { type: 'adoptIds', params: ({ event }) => event.output },
              ],
            },
            onError: { target: 'fallback', actions: 'restartReply' },
          },
          states: {
            /** The three-dot typing indicator. */
            waiting: {
              tags: ['waiting'],
              on: {
                'stream.chunk': { target: 'streaming', actions: 'growReply' },
                'stream.status': { actions: 'noteActivity' },
              },
            },
            /** Chunks grow the last assistant message. */
            streaming: {
              tags: ['streaming'],
              on: {
                'stream.chunk': { actions: 'growReply' },
                'stream.status': { actions: 'noteActivity' },
              },
            },
          },
        },
        /** Streaming failed: the same conversation is sent without streaming. */
        fallback: {
          tags: ['waiting'],
          invoke: {
            src: 'send',
            input: ({ context }) => ({ body: requestBody(context) }),
            onDone: {
              target: 'received',
              actions: [
                { type: 'startReveal', params: ({ event }) => event.output },
                { type: 'adoptIds', params: ({ event }) => event.output },
              ],
            },
            onError: { target: '#chat.ready', actions: ['removeFailedTurn', 'notifySendFailed'] },
          },
        },
        /**
         * The server answered and stored the reply: the URL and the stored state follow it, and the
         * session's first reply makes the chat lists reload.
         */
        received: {
          entry: ['setSessionParam', 'saveChat'],
          always: [
            {
              guard: 'historyNotRefreshed',
              target: 'revealing',
              actions: ['markHistoryRefreshed', 'refreshHistory'],
            },
            { target: 'revealing' },
          ],
        },
        /** A reply that arrived whole is shown as a simulated stream: 3 characters every 50 ms. */
        revealing: {
          tags: ['streaming'],
          always: [
            // A streamed reply is already whole.
            { guard: 'nothingToReveal', target: '#chat.ready' },
            {
              guard: 'isRevealed',
              target: '#chat.ready',
              // Announced first: completing clears `reveal`.
              actions: [
                {
                  type: 'announceReply',
                  params: ({ context }) => ({ response: context.reveal ?? '' }),
                },
                {
                  type: 'completeReply',
                  params: ({ context }) => ({ response: context.reveal ?? '' }),
                },
              ],
            },
          ],
          after: {
            revealInterval: { target: 'revealing', reenter: true, actions: 'revealMore' },
          },
        },
      },
    },
  },
});

/**
 * The conversation machine with its side effects: the adapter's calls, each given the `signal` that
 * aborts it when the chat moves on, and `store` for what the browser remembers.
 */
export function chatLogic(adapter: ChatAdapter, store: ChatStore = browserChatStore()) {
  return chatMachine.provide({
    actors: {
      loadStoredChat: fromPromise(async ({ input }) => store.load(input.userId)),
      getSession: fromPromise(({ input, signal }) =>
        adapter.getSession(input.sessionId, { signal }),
      ),
      sendStream: fromPromise(async ({ input, signal }) => {
        for await (const event of adapter.sendStream(input.body, { signal })) {
          if (signal.aborted) break;
          if (event.type === 'chunk') input.onChunk(event.text);
          else if (event.type === 'status') input.onStatus(event.text);
          else
            return {
              response: event.response,
              sessionId: event.sessionId,
              threadId: event.threadId,
            };
        }
        throw new Error('The reply stream ended without its final answer.');
      }),
      send: fromPromise(({ input, signal }) => adapter.send(input.body, { signal })),
    },
    guards: {
      historyNotRefreshed: ({ context }) => !store.wasHistoryRefreshed(context.sessionId),
    },
    actions: {
      saveChat: ({ context }) => {
        if (context.userId === null) return;
        store.save(context.userId, {
          currentSessionId: context.sessionId,
          currentThreadId: context.threadId,
          messageCount: context.messages.length,
          timestamp: Date.now(),
        });
      },
      forgetChat: ({ context }) => {
        if (context.userId !== null) store.clear(context.userId);
      },
      markHistoryRefreshed: ({ context }) => store.markHistoryRefreshed(context.sessionId),
    },
  });
}
