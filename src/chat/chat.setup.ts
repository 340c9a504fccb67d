import { assign, emit, setup } from 'xstate';

import {
  canSend,
  exceedsMessageLimit,
  isClientSessionId,
  newClientSessionId,
  prepareMessage,
} from '../lib/chat';
import { CHAT } from '../lib/limits';
import { CHAT_MESSAGES, startedConversation } from '../lib/messages';
import { notProvided, stubActor } from '../lib/stub-actor';
import type { ChatSendRequest, ChatSendResponse, ChatSessionDetail } from './chat.adapter';
import type { StoredChat } from './chat.store';
import {
  type ChatEntry,
  dropFailedTurn,
  fromServer,
  growReply,
  lastReply,
  lastUserText,
  noteActivity,
  pendingReply,
  updateReply,
  welcomeEntry,
} from './chat.thread';
import type { ChatContext, ChatEmitted, ChatEvent, ChatInput, SendStreamInput } from './chat.types';

/*
 * What the conversation machine can do: its actors, guards and actions, by name. The statechart in
 * `chat.machine.ts` says when; `chatLogic(adapter)` there provides the side effects stubbed here.
 */

// Stubs that fail loudly: `chatLogic(adapter)` provides the real ones.
const HOW = 'create the chat with chatLogic(adapter)';

function localId(context: ChatContext, offset = 0) {
  return `local-${context.nextId + offset}`;
}

export const chatSetup = setup({
  types: {
    context: {} as ChatContext,
    events: {} as ChatEvent,
    input: {} as ChatInput,
    emitted: {} as ChatEmitted,
    tags: {} as 'loading' | 'busy' | 'waiting' | 'streaming',
  },
  actors: {
    loadStoredChat: stubActor<StoredChat | null, { userId: string }>('loadStoredChat', HOW),
    getSession: stubActor<ChatSessionDetail, { sessionId: string }>('getSession', HOW),
    sendStream: stubActor<ChatSendResponse, SendStreamInput>('sendStream', HOW),
    send: stubActor<ChatSendResponse, { body: ChatSendRequest }>('send', HOW),
  },
  guards: {
    hasSessionParam: ({ context }) => context.sessionId !== '',
    hasUser: ({ context }) => context.userId !== null,
    isRestorable: (_, stored: StoredChat | null) =>
      stored !== null && !isClientSessionId(stored.currentSessionId),
    hasMessages: (_, session: ChatSessionDetail) => session.messages.length > 0,
    isAnotherSession: ({ context, event }) =>
      event.type === 'session.open' && event.sessionId !== context.sessionId,
    fitsLimit: ({ event }) => event.type === 'draft.change' && !exceedsMessageLimit(event.text),
    canSend: ({ context }) => canSend({ text: context.draft, waiting: false }),
    canRetry: ({ context }) =>
      context.failed !== null || lastReply(context.messages)?.status === 'stopped',
    nothingToReveal: ({ context }) => context.reveal === null,
    isRevealed: ({ context }) =>
      (lastReply(context.messages)?.content.length ?? 0) >= (context.reveal?.length ?? 0),
    historyNotRefreshed: (): boolean => {
      throw notProvided('historyNotRefreshed', HOW);
    },
  },
  actions: {
    saveChat: () => {
      throw notProvided('saveChat', HOW);
    },
    forgetChat: () => {
      throw notProvided('forgetChat', HOW);
    },
    markHistoryRefreshed: () => {
      throw notProvided('markHistoryRefreshed', HOW);
    },

    setDraft: assign({ draft: ({ event }) => (event.type === 'draft.change' ? event.text : '') }),
    notifyTooLong: emit({ type: 'notify', tone: 'error', message: CHAT_MESSAGES.tooLong }),
    notifyNotFound: emit({ type: 'notify', tone: 'error', message: CHAT_MESSAGES.sessionNotFound }),
    notifySendFailed: emit({ type: 'notify', tone: 'error', message: CHAT_MESSAGES.sendFailed }),

    startNewConversation: assign(() => ({
      sessionId: newClientSessionId(),
      threadId: null,
      title: null,
      messages: [],
      failed: null,
      reveal: null,
    })),
    /** Removes the `sessionId` URL parameter. */
    clearSessionParam: emit({ type: 'session.changed', sessionId: null }),
    openSession: assign(({ event }) => ({
      sessionId: event.type === 'session.open' ? event.sessionId : '',
      threadId: null,
      title: null,
      messages: [],
      failed: null,
      reveal: null,
    })),
    restoreStored: assign((_, stored: StoredChat | null) => ({
      sessionId: stored?.currentSessionId ?? '',
      threadId: stored?.currentThreadId ?? null,
    })),
    showMessages: assign((_, session: ChatSessionDetail) => ({
      title: session.title,
      messages: fromServer(session.messages),
    })),
    showWelcome: assign(({ context }, session: ChatSessionDetail) => ({
      title: session.title,
      messages: [welcomeEntry(localId(context), session.title)],
      nextId: context.nextId + 1,
    })),
    notifyStarted: emit((_, session: ChatSessionDetail) => ({
      type: 'notify' as const,
      tone: 'success' as const,
      message: startedConversation(session.title),
    })),
    /** Puts the conversation's id in the URL. */
    setSessionParam: emit(({ context }) => ({
      type: 'session.changed' as const,
      sessionId: context.sessionId,
    })),

    setDashboardData: assign({
      dashboardData: ({ context, event }) =>
        event.type === 'dashboard.change' ? event.dashboardData : context.dashboardData,
    }),
    sendDraft: assign(({ context }) => ({
      messages: [
        ...context.messages,
        {
          id: localId(context),
          role: 'user',
          content: prepareMessage(context.draft),
          status: 'complete',
        } satisfies ChatEntry,
        pendingReply(localId(context, 1)),
      ],
      nextId: context.nextId + 2,
      draft: '',
      failed: null,
    })),
    retryReply: assign(({ context }) => {
      const messages =
        context.failed !== null
          ? [
              ...context.messages,
              {
                id: localId(context),
                role: 'user',
                content: context.failed,
                status: 'complete',
              } satisfies ChatEntry,
            ]
          : context.messages.slice(0, -1); // the stopped reply
      return {
        messages: [...messages, pendingReply(localId(context, 1))],
        nextId: context.nextId + 2,
        failed: null,
      };
    }),
    growReply: assign({
      messages: ({ context, event }) =>
        event.type === 'stream.chunk' ? growReply(context.messages, event.text) : context.messages,
    }),
    noteActivity: assign({
      messages: ({ context, event }) =>
        event.type === 'stream.status'
          ? noteActivity(context.messages, event.text)
          : context.messages,
    }),
    restartReply: assign({
      messages: ({ context }) =>
        updateReply(context.messages, () => ({
          content: '',
          status: 'pending',
          activity: undefined,
        })),
    }),
    stopReply: assign({
      messages: ({ context }) =>
        updateReply(context.messages, () => ({ status: 'stopped', activity: undefined })),
      reveal: null,
    }),
    removeFailedTurn: assign(({ context }) => ({
      messages: dropFailedTurn(context.messages),
      failed: lastUserText(context.messages) ?? null,
    })),

    /** The server's answer: its session and thread ids are adopted. */
    adoptIds: assign((_, reply: ChatSendResponse) => ({
      sessionId: reply.sessionId,
      threadId: reply.threadId,
    })),
    completeReply: assign(({ context }, reply: { response: string }) => ({
      messages: updateReply(context.messages, () => ({
        content: reply.response,
        status: 'complete',
        activity: undefined,
      })),
      reveal: null,
    })),
    announceReply: emit((_, reply: { response: string }) => ({
      type: 'reply.completed' as const,
      content: reply.response,
    })),
    refreshHistory: emit(({ context }) => ({
      type: 'history.refresh' as const,
      sessionId: context.sessionId,
    })),
    startReveal: assign({
      reveal: (_, reply: ChatSendResponse) => reply.response,
      messages: ({ context }) =>
        updateReply(context.messages, () => ({ content: '', status: 'streaming' })),
    }),
    revealMore: assign({
      messages: ({ context }) =>
        updateReply(context.messages, (reply) => ({
          content: (context.reveal ?? '').slice(0, reply.content.length + CHAT.fakeStreamChars),
        })),
    }),
  },
  delays: {
    revealInterval: CHAT.fakeStreamIntervalMs,
  },
});
