import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorLogic, createActor, toPromise, waitFor } from 'xstate';

import {
  apiError,
  brokenStream,
  controlledStream,
  deferred,
  fakeChatAdapter,
  pending,
  sampleMessages,
  sessionDetail,
  streamOf,
} from '../../../fakes/chat';
import type { ChatAdapter, ChatSessionDetail } from '../../../src/api';
import { chatLogic, chatMachine } from '../../../src/chat/chat.machine';
import { type ChatStore, memoryChatStore } from '../../../src/chat/chat.store';
import type { ChatInput } from '../../../src/chat/chat.types';
import { CHAT } from '../../../src/lib/limits';
import { CHAT_MESSAGES, startedConversation, welcomeBack } from '../../../src/lib/messages';
import { startRecording } from '../../support/recording';

function start(
  overrides: Partial<ChatAdapter> = {},
  input: ChatInput = {},
  store: ChatStore = memoryChatStore(),
) {
  return { ...startRecording(chatLogic(fakeChatAdapter(overrides), store), { input }), store };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

// Lets settled promises run their callbacks while the clock is fake.
async function microtasks() {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

function type(actor: ReturnType<typeof start>['actor'], text: string) {
  actor.send({ type: 'draft.change', text });
}

function send(actor: ReturnType<typeof start>['actor'], text: string) {
  type(actor, text);
  actor.send({ type: 'message.send' });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('chat machine: stubs', () => {
  it('fails loudly when its actors are not provided', async () => {
    const stub = chatMachine.implementations.actors.getSession as AnyActorLogic;
    const actor = createActor(stub, { input: { sessionId: 's1' } }).start();
    await expect(toPromise(actor)).rejects.toThrow(
      'getSession must be provided: create the chat with chatLogic(adapter)',
    );
  });

  it('throws a named error from a stub action', () => {
    const actor = createActor(chatMachine, { input: {} });
    const errors: Error[] = [];
    actor.subscribe({ error: (error) => errors.push(error as Error) });
    actor.start();
    expect(errors[0]?.message).toMatch(/forgetChat must be provided/);
  });
});

describe('chat machine: new conversation', () => {
  it('starts a new conversation with a fresh client id when there is no session and no user', () => {
    const { actor } = start();
    const { value, context } = actor.getSnapshot();
    expect(value).toBe('ready');
    expect(context.sessionId).toMatch(/^session_\d+_[0-9a-z]{9}$/);
    expect(context.threadId).toBeNull();
    expect(context.messages).toEqual([]);
  });

  it('session.new clears the thread, messages, stored state and the URL parameter', async () => {
    const store = memoryChatStore();
    const { actor, emitted } = start({}, { userId: 'u1', sessionId: 's1' }, store);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(store.load('u1')?.currentSessionId).toBe('s1');
    emitted.length = 0;

    actor.send({ type: 'session.new' });
    const { value, context } = actor.getSnapshot();
    expect(value).toBe('ready');
    expect(context.messages).toEqual([]);
    expect(context.threadId).toBeNull();
    expect(context.sessionId).not.toBe('s1');
    expect(store.load('u1')).toBeNull();
    expect(emitted).toContainEqual({ type: 'session.changed', sessionId: null });
  });

  it('session.new during a reply abandons it', async () => {
    const stream = controlledStream();
    const { actor } = start({ sendStream: stream.stream });
    send(actor, 'Hi');
    await flush();
    actor.send({ type: 'session.new' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.messages).toEqual([]);
    expect(stream.signals[0]?.aborted).toBe(true);
  });
});

describe('chat machine: opening a session', () => {
  it('shows the loading state, then the messages', async () => {
    const call = deferred<ChatSessionDetail>();
    const { actor } = start({ getSession: () => call.promise }, { sessionId: 's1' });
    expect(actor.getSnapshot().value).toBe('opening');
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);

    call.resolve(sessionDetail('s1'));
    await waitFor(actor, (s) => s.matches('ready'));
    const { context } = actor.getSnapshot();
    expect(context.sessionId).toBe('s1');
    expect(context.messages.map((m) => m.content)).toEqual(sampleMessages.map((m) => m.content));
  });

  it('greets with the welcome-back message and a toast when the session has no messages', async () => {
    const { actor, emitted } = start(
      { getSession: async (id) => sessionDetail(id, [], 'Fractions homework') },
      { sessionId: 's1' },
    );
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.messages).toEqual([
      expect.objectContaining({
        role: 'assistant',
        content: welcomeBack('Fractions homework'),
        status: 'complete',
      }),
    ]);
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'success',
      message: startedConversation('Fractions homework'),
    });
  });

  it('starts a new conversation with a toast when the session cannot be loaded', async () => {
    const { actor, emitted } = start(
      { getSession: async () => Promise.reject(apiError(404, 'Not found')) },
      { sessionId: 'gone' },
    );
    await waitFor(actor, (s) => s.matches('ready'));
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'error',
      message: CHAT_MESSAGES.sessionNotFound,
    });
    expect(emitted).toContainEqual({ type: 'session.changed', sessionId: null });
    expect(actor.getSnapshot().context.sessionId).toMatch(/^session_/);
  });

  it('session.open loads another session and aborts the one loading', async () => {
    const signals: AbortSignal[] = [];
    const first = deferred<ChatSessionDetail>();
    const getSession = vi.fn((id: string, options?: { signal?: AbortSignal }) => {
      if (options?.signal) signals.push(options.signal);
      return id === 's1' ? first.promise : Promise.resolve(sessionDetail(id));
    });
    const { actor } = start({ getSession }, { sessionId: 's1' });
    actor.send({ type: 'session.open', sessionId: 's2' });
    expect(signals[0]?.aborted).toBe(true);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.sessionId).toBe('s2');
  });

  it('ignores session.open for the session already shown', async () => {
    const getSession = vi.fn(async (id: string) => sessionDetail(id));
    const { actor } = start({ getSession }, { sessionId: 's1' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'session.open', sessionId: 's1' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(getSession).toHaveBeenCalledTimes(1);
  });
});

describe('chat machine: restoring the last session', () => {
  const stored = (id: string) => ({
    currentSessionId: id,
    currentThreadId: 'thread-9',
    messageCount: 2,
    timestamp: 1,
  });

  it("reopens the user's stored session and puts it in the URL", async () => {
    const store = memoryChatStore();
    store.save('u1', stored('s2'));
    const { actor, emitted } = start({}, { userId: 'u1' }, store);
    expect(actor.getSnapshot().matches('restoring')).toBe(true);
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    await waitFor(actor, (s) => s.matches('ready'));
    const { context } = actor.getSnapshot();
    expect(context.sessionId).toBe('s2');
    expect(context.threadId).toBe('thread-9');
    expect(context.messages).toHaveLength(2);
    expect(emitted).toContainEqual({ type: 'session.changed', sessionId: 's2' });
  });

  it('keeps each user apart', async () => {
    const store = memoryChatStore();
    store.save('u1', stored('s2'));
    const { actor } = start({}, { userId: 'u2' }, store);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.sessionId).toMatch(/^session_/);
  });

  it('prefers the URL over the stored session', async () => {
    const store = memoryChatStore();
    store.save('u1', stored('s2'));
    const { actor } = start({}, { userId: 'u1', sessionId: 's3' }, store);
    expect(actor.getSnapshot().value).toBe('opening');
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.sessionId).toBe('s3');
  });

  it('starts quietly over when the stored session is gone', async () => {
    const store = memoryChatStore();
    store.save('u1', stored('gone'));
    const { actor, emitted } = start(
      { getSession: () => Promise.reject(apiError(404)) },
      { userId: 'u1' },
      store,
    );
    await waitFor(actor, (s) => s.matches('ready'));
    expect(emitted.filter((e) => e.type === 'notify')).toEqual([]);
    expect(store.load('u1')).toBeNull();
  });

  it('does not restore a client id the server never knew', async () => {
    const store = memoryChatStore();
    store.save('u1', stored('session_1700000000000_abcdefghi'));
    const getSession = vi.fn();
    const { actor } = start({ getSession }, { userId: 'u1' }, store);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(getSession).not.toHaveBeenCalled();
  });
});

describe('chat machine: the draft', () => {
  it('accepts text up to the limit', () => {
    const { actor } = start();
    type(actor, 'a'.repeat(CHAT.maxMessageLength));
    expect(actor.getSnapshot().context.draft).toHaveLength(CHAT.maxMessageLength);
  });

  it('refuses typing beyond 4000 characters with a toast', () => {
    const { actor, emitted } = start();
    type(actor, 'a'.repeat(CHAT.maxMessageLength));
    type(actor, 'a'.repeat(CHAT.maxMessageLength + 1));
    expect(actor.getSnapshot().context.draft).toHaveLength(CHAT.maxMessageLength);
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'error',
      message: 'Message can be up to 4000 characters only.',
    });
  });

  it('cannot send an empty or blank message', () => {
    const { actor } = start();
    expect(actor.getSnapshot().can({ type: 'message.send' })).toBe(false);
    type(actor, '   \n ');
    expect(actor.getSnapshot().can({ type: 'message.send' })).toBe(false);
    actor.send({ type: 'message.send' });
    expect(actor.getSnapshot().value).toBe('ready');
    type(actor, 'Hi');
    expect(actor.getSnapshot().can({ type: 'message.send' })).toBe(true);
  });
});

describe('chat machine: sending and streaming', () => {
  it('sends the trimmed message with the whole conversation and waits with the typing indicator', async () => {
    const stream = controlledStream();
    const { actor } = start({ sendStream: stream.stream });
    send(actor, '  What is 2 + 2?  ');
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual({ replying: { stream: 'waiting' } });
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.hasTag('waiting')).toBe(true);
    expect(snapshot.can({ type: 'message.send' })).toBe(false);
    expect(snapshot.can({ type: 'message.stop' })).toBe(true);
    expect(snapshot.context.draft).toBe('');
    expect(snapshot.context.messages).toEqual([
      expect.objectContaining({ role: 'user', content: 'What is 2 + 2?', status: 'complete' }),
      expect.objectContaining({ role: 'assistant', content: '', status: 'pending' }),
    ]);
    await flush();
    expect(stream.requests[0]).toEqual({
      messages: [{ role: 'user', content: 'What is 2 + 2?' }],
      dashboardData: {},
    });
  });

  it('grows the last assistant message with each chunk, then replaces it with the final text', async () => {
    const stream = controlledStream();
    const { actor, emitted } = start({ sendStream: stream.stream });
    send(actor, 'Hi');
    stream.push('Hel');
    await waitFor(actor, (s) => s.matches({ replying: { stream: 'streaming' } }));
    expect(actor.getSnapshot().hasTag('streaming')).toBe(true);
    stream.push('lo');
    await waitFor(actor, (s) => s.context.messages.at(-1)?.content === 'Hello');
    expect(actor.getSnapshot().context.messages.at(-1)?.status).toBe('streaming');

    stream.finish({ response: 'Hello!', sessionId: 's9', threadId: 't9' });
    await waitFor(actor, (s) => s.matches('ready'));
    const { context } = actor.getSnapshot();
    expect(context.messages.at(-1)).toMatchObject({ content: 'Hello!', status: 'complete' });
    expect(context.sessionId).toBe('s9');
    expect(context.threadId).toBe('t9');
    expect(emitted).toContainEqual({ type: 'session.changed', sessionId: 's9' });
    expect(emitted).toContainEqual({ type: 'reply.completed', content: 'Hello!' });
  });

  it('shows what the tutor is doing beside the reply, never in it, until its next text', async () => {
    const stream = controlledStream();
    const { actor } = start({ sendStream: stream.stream });
    const reply = () => actor.getSnapshot().context.messages.at(-1);
    send(actor, 'Is 3/4 + 1/8 = 7/8?');
    stream.status('Checking the maths…');
    await waitFor(actor, () => reply()?.activity === 'Checking the maths…');
    // Still the typing indicator: a status is no text of the reply.
    expect(actor.getSnapshot().hasTag('waiting')).toBe(true);
    expect(reply()).toMatchObject({ content: '', status: 'pending' });

    stream.push('Yes: ');
    await waitFor(actor, (s) => s.matches({ replying: { stream: 'streaming' } }));
    expect(reply()).toMatchObject({ content: 'Yes: ', activity: undefined });

    // A second round of checking in the middle of the reply, then the rest of it.
    stream.status('Checking the maths…');
    await waitFor(actor, () => reply()?.activity === 'Checking the maths…');
    expect(reply()?.content).toBe('Yes: ');
    stream.finish({ response: 'Yes: $\\frac{7}{8}$.' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(reply()).toMatchObject({ content: 'Yes: $\\frac{7}{8}$.', status: 'complete' });
    expect(reply()?.activity).toBeUndefined();
  });

  it('a stopped reply no longer says what the tutor was doing', async () => {
    const stream = controlledStream();
    const { actor } = start({ sendStream: stream.stream });
    send(actor, 'Is 2 + 2 = 5?');
    stream.status('Checking the maths…');
    await waitFor(actor, (s) => s.context.messages.at(-1)?.activity !== undefined);
    actor.send({ type: 'message.stop' });
    expect(actor.getSnapshot().context.messages.at(-1)).toMatchObject({ status: 'stopped' });
    expect(actor.getSnapshot().context.messages.at(-1)?.activity).toBeUndefined();
  });

  it('sends the adopted ids and the dashboard data with the next message', async () => {
    const stream = controlledStream();
    const { actor } = start({ sendStream: stream.stream });
    send(actor, 'Hi');
    stream.finish({ response: 'Hello', sessionId: 's9', threadId: 't9' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'dashboard.change', dashboardData: { tokens: 12 } });
    send(actor, 'More');
    await flush();
    expect(stream.requests[1]).toEqual({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'More' },
      ],
      sessionId: 's9',
      threadId: 't9',
      dashboardData: { tokens: 12 },
    });
  });

  it("stores the user's conversation after a reply", async () => {
    const store = memoryChatStore();
    const { actor } = start({}, { userId: 'u1' }, store);
    await waitFor(actor, (s) => s.matches('ready'));
    send(actor, 'Hi');
    await waitFor(actor, (s) => s.matches('ready'));
    expect(store.load('u1')).toMatchObject({
      currentSessionId: 'session-new',
      currentThreadId: 'thread-new',
      messageCount: 2,
    });
  });

  it("fires the history refresh once per session, after the session's first reply", async () => {
    const store = memoryChatStore();
    const { actor, emitted } = start({ sendStream: streamOf(['Hi']) }, {}, store);
    send(actor, 'One');
    await waitFor(actor, (s) => s.matches('ready'));
    send(actor, 'Two');
    await waitFor(actor, (s) => s.matches('ready'));
    expect(emitted.filter((e) => e.type === 'history.refresh')).toEqual([
      { type: 'history.refresh', sessionId: 'session-new' },
    ]);
    expect(store.wasHistoryRefreshed('session-new')).toBe(true);

    // A reload in the same tab remembers it.
    const again = start({ sendStream: streamOf(['Hi']) }, { sessionId: 'session-new' }, store);
    await waitFor(again.actor, (s) => s.matches('ready'));
    send(again.actor, 'Three');
    await waitFor(again.actor, (s) => s.matches('ready'));
    expect(again.emitted.some((e) => e.type === 'history.refresh')).toBe(false);
  });
});

describe('chat machine: more of the flow', () => {
  it('sends the dashboard data given as input', async () => {
    const stream = controlledStream();
    const { actor } = start({ sendStream: stream.stream }, { dashboardData: { tokens: 125 } });
    send(actor, 'Hi');
    await flush();
    expect(stream.requests[0]?.dashboardData).toEqual({ tokens: 125 });
  });

  it('session.open during a reply aborts it and opens the session', async () => {
    const stream = controlledStream();
    const { actor } = start({ sendStream: stream.stream });
    send(actor, 'Hi');
    await flush();
    actor.send({ type: 'session.open', sessionId: 's2' });
    expect(actor.getSnapshot().value).toBe('opening');
    expect(stream.signals[0]?.aborted).toBe(true);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.messages).toHaveLength(sampleMessages.length);
  });

  it('falls back when the stream ends without its final answer', async () => {
    const send = vi.fn(async () => ({ response: 'Whole', sessionId: 's1', threadId: 't1' }));
    const { actor } = start({
      // eslint-disable-next-line require-yield
      sendStream: async function* () {
        return;
      },
      send,
    });
    type(actor, 'Hi');
    actor.send({ type: 'message.send' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(send).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.messages.at(-1)?.content).toBe('Whole');
  });

  it('ignores chunks that arrive after the reply was stopped', async () => {
    const stream = controlledStream();
    const { actor } = start({ sendStream: stream.stream });
    send(actor, 'Hi');
    stream.push('One');
    await waitFor(actor, (s) => s.matches({ replying: { stream: 'streaming' } }));
    actor.send({ type: 'message.stop' });
    actor.send({ type: 'stream.chunk', text: ' two' });
    expect(actor.getSnapshot().context.messages.at(-1)?.content).toBe('One');
  });
});

describe('chat machine: stop and retry', () => {
  it('stop keeps the partial answer, marked stopped, and aborts the request', async () => {
    const stream = controlledStream();
    const { actor } = start({ sendStream: stream.stream });
    send(actor, 'Explain gravity');
    stream.push('Gravity is');
    await waitFor(actor, (s) => s.matches({ replying: { stream: 'streaming' } }));
    actor.send({ type: 'message.stop' });
    const { value, context } = actor.getSnapshot();
    expect(value).toBe('ready');
    expect(context.messages.at(-1)).toMatchObject({ content: 'Gravity is', status: 'stopped' });
    expect(stream.signals[0]?.aborted).toBe(true);
  });

  it('stop while waiting leaves an empty stopped reply', async () => {
    const { actor } = start({ sendStream: brokenStream([], null) });
    send(actor, 'Hi');
    actor.send({ type: 'message.stop' });
    expect(actor.getSnapshot().context.messages.at(-1)).toMatchObject({
      content: '',
      status: 'stopped',
    });
  });

  it('retry replaces a stopped reply with a new one, without the stopped text', async () => {
    const stream = controlledStream();
    const { actor } = start({ sendStream: stream.stream });
    send(actor, 'Explain gravity');
    stream.push('Gravity is');
    await waitFor(actor, (s) => s.matches({ replying: { stream: 'streaming' } }));
    actor.send({ type: 'message.stop' });
    expect(actor.getSnapshot().can({ type: 'message.retry' })).toBe(true);

    actor.send({ type: 'message.retry' });
    expect(actor.getSnapshot().value).toEqual({ replying: { stream: 'waiting' } });
    expect(actor.getSnapshot().context.messages).toEqual([
      expect.objectContaining({ role: 'user', content: 'Explain gravity' }),
      expect.objectContaining({ role: 'assistant', status: 'pending' }),
    ]);
    await flush();
    expect(stream.requests[1]?.messages).toEqual([{ role: 'user', content: 'Explain gravity' }]);
  });

  it('cannot retry a completed reply', async () => {
    const { actor } = start();
    send(actor, 'Hi');
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().can({ type: 'message.retry' })).toBe(false);
  });

  it('a stopped reply stays in the conversation sent next', async () => {
    const stream = controlledStream();
    const { actor } = start({ sendStream: stream.stream });
    send(actor, 'One');
    stream.push('Partial');
    await waitFor(actor, (s) => s.matches({ replying: { stream: 'streaming' } }));
    actor.send({ type: 'message.stop' });
    send(actor, 'Two');
    await flush();
    expect(stream.requests[1]?.messages).toEqual([
      { role: 'user', content: 'One' },
      { role: 'assistant', content: 'Partial' },
      { role: 'user', content: 'Two' },
    ]);
  });
});

describe('chat machine: fallback and failure', () => {
  it('falls back to a non-streaming send when streaming fails, showing the typing indicator again', async () => {
    const answer = deferred<{ response: string; sessionId: string; threadId: string }>();
    const sendCall = vi.fn(() => answer.promise);
    const { actor } = start({ sendStream: brokenStream(['Par']), send: sendCall });
    send(actor, 'Hi');
    await waitFor(actor, (s) => s.matches({ replying: 'fallback' }));
    const snapshot = actor.getSnapshot();
    expect(snapshot.hasTag('waiting')).toBe(true);
    expect(snapshot.context.messages.at(-1)).toMatchObject({ content: '', status: 'pending' });
    expect(sendCall).toHaveBeenCalledWith(
      { messages: [{ role: 'user', content: 'Hi' }], dashboardData: {} },
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
  });

  it('reveals a whole reply 3 characters every 50 ms, then completes it', async () => {
    vi.useFakeTimers();
    const { actor, emitted } = start({
      sendStream: brokenStream([]),
      send: async () => ({ response: 'abcdefgh', sessionId: 's5', threadId: 't5' }),
    });
    send(actor, 'Hi');
    await microtasks();
    expect(actor.getSnapshot().matches({ replying: 'revealing' })).toBe(true);
    const content = () => actor.getSnapshot().context.messages.at(-1)?.content;
    expect(content()).toBe('');
    expect(actor.getSnapshot().hasTag('streaming')).toBe(true);
    // The ids are adopted as soon as the answer arrives.
    expect(actor.getSnapshot().context.sessionId).toBe('s5');
    expect(emitted).toContainEqual({ type: 'session.changed', sessionId: 's5' });

    vi.advanceTimersByTime(CHAT.fakeStreamIntervalMs - 1);
    expect(content()).toBe('');
    vi.advanceTimersByTime(1);
    expect(content()).toBe('abc');
    vi.advanceTimersByTime(CHAT.fakeStreamIntervalMs);
    expect(content()).toBe('abcdef');
    vi.advanceTimersByTime(CHAT.fakeStreamIntervalMs);
    expect(content()).toBe('abcdefgh');
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.messages.at(-1)?.status).toBe('complete');
    expect(emitted).toContainEqual({ type: 'reply.completed', content: 'abcdefgh' });
  });

  it('stop during the simulated stream keeps what was shown', async () => {
    vi.useFakeTimers();
    const { actor } = start({
      sendStream: brokenStream([]),
      send: async () => ({ response: 'abcdefgh', sessionId: 's5', threadId: 't5' }),
    });
    send(actor, 'Hi');
    await microtasks();
    expect(actor.getSnapshot().matches({ replying: 'revealing' })).toBe(true);
    vi.advanceTimersByTime(CHAT.fakeStreamIntervalMs);
    actor.send({ type: 'message.stop' });
    vi.advanceTimersByTime(CHAT.fakeStreamIntervalMs * 5);
    expect(actor.getSnapshot().context.messages.at(-1)).toMatchObject({
      content: 'abc',
      status: 'stopped',
    });
  });

  it('removes the user message and shows the error toast when both sends fail', async () => {
    const { actor, emitted } = start({
      sendStream: brokenStream([]),
      send: () => Promise.reject(apiError()),
    });
    send(actor, 'Earlier');
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.messages).toEqual([]);
    expect(actor.getSnapshot().context.failed).toBe('Earlier');
    expect(emitted).toContainEqual({
      type: 'notify',
      tone: 'error',
      message: 'Failed to send message. Please try again.',
    });
  });

  it('keeps the earlier conversation when a later send fails', async () => {
    let fail = false;
    const { actor } = start({
      sendStream: (body, options) => (fail ? brokenStream([]) : streamOf(['Hello']))(body, options),
      send: () => Promise.reject(apiError()),
    });
    send(actor, 'One');
    await waitFor(actor, (s) => s.matches('ready'));
    fail = true;
    send(actor, 'Two');
    await waitFor(actor, (s) => s.matches('ready') && s.context.failed !== null);
    expect(actor.getSnapshot().context.messages.map((m) => m.content)).toEqual(['One', 'Hello']);
  });

  it('retry sends a failed message again', async () => {
    let fail = true;
    const stream = controlledStream();
    const { actor } = start({
      sendStream: (body, options) => (fail ? brokenStream([]) : stream.stream)(body, options),
      send: () => Promise.reject(apiError()),
    });
    send(actor, 'Hi');
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().can({ type: 'message.retry' })).toBe(true);
    fail = false;
    actor.send({ type: 'message.retry' });
    expect(actor.getSnapshot().context.failed).toBeNull();
    expect(actor.getSnapshot().context.messages).toEqual([
      expect.objectContaining({ role: 'user', content: 'Hi' }),
      expect.objectContaining({ role: 'assistant', status: 'pending' }),
    ]);
    await flush();
    expect(stream.requests[0]?.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('a new message clears the failed one', async () => {
    const { actor } = start({
      sendStream: brokenStream([]),
      send: () => Promise.reject(apiError()),
    });
    send(actor, 'Hi');
    await waitFor(actor, (s) => s.matches('ready'));
    type(actor, 'Another');
    actor.send({ type: 'message.send' });
    expect(actor.getSnapshot().context.failed).toBeNull();
  });

  it('an aborted fallback is not reported as a failure', async () => {
    const { actor, emitted } = start({
      sendStream: brokenStream([]),
      send: (_body, options) => pending(options),
    });
    send(actor, 'Hi');
    await waitFor(actor, (s) => s.matches({ replying: 'fallback' }));
    actor.send({ type: 'message.stop' });
    await flush();
    expect(emitted.filter((e) => e.type === 'notify')).toEqual([]);
    expect(actor.getSnapshot().context.messages.at(-1)?.status).toBe('stopped');
  });
});
