/**
 * The HTTP adapter against the real server (issue 5's integration test): `createHttpApi` in Node,
 * signed in through its own `auth` adapter (register, the emailed token, verify, login), streaming a
 * reply from the product started on a loopback OpenAI-compatible model. Chunks arrive in order and as
 * the model writes them; `done` names the session and thread; the session holds both messages; an
 * abort mid-stream rejects with an AbortError and stores no half reply.
 */
import { beforeAll, describe, expect, test } from 'vitest';

import type { Api } from '../../src/api';
import type { ChatStreamEvent } from '../../src/chat/chat.adapter';
import { createHttpApi } from '../../src/http';
import { isAbortError } from '../../src/lib/http-errors';
import { FakeOpenAI } from '../server/fake-openai';
import { STUDENT_PASSWORD, useProduct } from './product';

const model = new FakeOpenAI();
const e2e = useProduct({ model, browser: false });
let api: Api;
let token: string | null = null;
let unauthorized = 0;

beforeAll(() => {
  api = createHttpApi({
    baseURL: e2e.product.url,
    getToken: () => token,
    onUnauthorized: () => unauthorized++,
  });
});

describe('the HTTP adapter over the real server', () => {
  test('signs a student in through the auth adapter', async () => {
    const email = `lea.${Date.now()}@example.com`;
    const registered = await api.auth.register({
      email,
      password: STUDENT_PASSWORD,
      display_name: 'Lea',
      agreed_to_terms: true,
      agreed_to_privacy: true,
    });
    expect(registered.user.email).toBe(email);
    // Not verified yet: the server says so, and nothing signs out (no token yet).
    await expect(api.auth.login({ email, password: STUDENT_PASSWORD })).rejects.toMatchObject({
      status: 403,
    });
    const link = await e2e.product.linkFrom(new RegExp(email.replace(/[.+]/g, '\\$&')));
    const verified = await api.auth.verifyEmail({
      token: new URL(link).searchParams.get('token')!,
    });
    expect(verified.access_token).toBeTruthy();
    const signedIn = await api.auth.login({ email, password: STUDENT_PASSWORD });
    token = signedIn.access_token;
    expect((await api.auth.me()).user.email).toBe(email);
  });

  test('streams chunks in order as the model writes them, then done with the ids', async () => {
    const chunks = ['Let us ', 'look at ', '$x^2$: ', 'it is ', 'x times ', 'x.'];
    model.script({ kind: 'chunks', chunks, delayMs: 60 });
    const events: { event: ChatStreamEvent; at: number }[] = [];
    for await (const event of api.chat.sendStream({
      messages: [{ role: 'user', content: 'What does x squared mean?' }],
      dashboardData: {},
    })) {
      events.push({ event, at: Date.now() });
    }
    const texts = events.flatMap(({ event }) => (event.type === 'chunk' ? [event.text] : []));
    expect(texts).toEqual(chunks);
    expect(events.map(({ event }) => event.type)).toEqual([...chunks.map(() => 'chunk'), 'done']);
    // Streamed, not buffered: the first chunk came well before the last.
    expect(events.at(-2)!.at - events[0]!.at).toBeGreaterThanOrEqual(200);

    const done = events.at(-1)!.event;
    if (done.type !== 'done') throw new Error('no done event');
    expect(done.response).toBe(chunks.join(''));
    expect(done.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(done.threadId).toEqual(expect.any(String));
    expect(done.threadId).not.toBe('');

    const session = await api.chat.getSession(done.sessionId);
    expect(session.title).toBe('What does x squared mean?');
    expect(session.messages.map(({ role, content }) => ({ role, content }))).toEqual([
      { role: 'user', content: 'What does x squared mean?' },
      { role: 'assistant', content: chunks.join('') },
    ]);

    // The next turn continues the same session and thread.
    model.script({ kind: 'chunks', chunks: ['Nine.'] });
    let next: ChatStreamEvent | undefined;
    for await (const event of api.chat.sendStream({
      messages: [
        { role: 'user', content: 'What does x squared mean?' },
        { role: 'assistant', content: chunks.join('') },
        { role: 'user', content: 'And 3 squared?' },
      ],
      sessionId: done.sessionId,
      threadId: done.threadId,
    })) {
      next = event;
    }
    expect(next).toMatchObject({
      type: 'done',
      response: 'Nine.',
      sessionId: done.sessionId,
      threadId: done.threadId,
    });
    expect((await api.chat.getSession(done.sessionId)).messages).toHaveLength(4);
  });

  test('an abort mid-stream rejects with an AbortError and stores no half reply', async () => {
    const abortedBefore = model.aborted;
    model.script({
      kind: 'chunks',
      chunks: Array.from({ length: 40 }, (_, i) => `part${i} `),
      delayMs: 100,
    });
    const controller = new AbortController();
    const received: string[] = [];
    const reading = (async () => {
      for await (const event of api.chat.sendStream(
        { messages: [{ role: 'user', content: 'Tell me a long story about primes' }] },
        { signal: controller.signal },
      )) {
        if (event.type === 'chunk') received.push(event.text);
        if (received.length === 2) controller.abort();
      }
    })();
    const error = await reading.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error, 'the stream rejected').not.toBeNull();
    expect(isAbortError(error)).toBe(true);
    expect((error as Error).name).toBe('AbortError');
    expect(received).toEqual(['part0 ', 'part1 ']);

    // The server hung up on the model too, and kept the question without a reply.
    await model.abortedMoreThan(abortedBefore);
    await new Promise((r) => setTimeout(r, 200));
    const { sessions } = await api.chat.listSessions();
    const story = sessions.find((s) => s.title === 'Tell me a long story about primes');
    expect(story).toBeDefined();
    const { messages } = await api.chat.getSession(story!.id);
    expect(messages.map(({ role, content }) => ({ role, content }))).toEqual([
      { role: 'user', content: 'Tell me a long story about primes' },
    ]);
    expect(unauthorized).toBe(0);
  });
});
