/**
 * AYAH_TRACE_SENDS=1 (http/send-trace.ts, issue 26): a streamed send logs where its time went, each
 * phase's end in ms since it arrived, in order, with the model request's own phases taken from the
 * model call (not from the moderation call before it); bench:class reads the same traces.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { loadConfig } from '../../../server/config';
import type { SendTrace } from '../../../server/http/send-trace';
import { onSendTrace, SEND_PHASES } from '../../../server/http/send-trace';
import { FakeOpenAI } from '../fake-openai';
import type { HarnessOptions } from '../harness';
import { describeServer, parseSse, useTestServer } from '../harness';

const fake = new FakeOpenAI();
const options: HarnessOptions = { env: () => ({ AYAH_TRACE_SENDS: '1' }) };
beforeAll(async () => {
  await fake.start();
  options.llm = {
    baseUrl: fake.url,
    model: 'tutor-test',
    moderationUrl: `${fake.url}/moderations`,
    stallMs: 5000,
    timeoutMs: 10_000,
  };
});
afterAll(() => fake.close());
const h = useTestServer(options);

/** The model begins this long after it was asked: the trace must put that between its phases. */
const MODEL_THINKS_MS = 200;

describeServer('the send trace (AYAH_TRACE_SENDS=1)', () => {
  it('is off unless asked for', () => {
    expect(loadConfig({}).traceSends).toBe(false);
    expect(loadConfig({ AYAH_TRACE_SENDS: '1' }).traceSends).toBe(true);
  });

  it("logs each phase of a streamed send in order, the model's wait between its phases", async () => {
    const user = await h.user('Tariq');
    const heard: SendTrace[] = [];
    const stop = onSendTrace((trace) => heard.push(trace));
    fake.script({ kind: 'chunks', chunks: ['Half', ' of it.'], startDelayMs: MODEL_THINKS_MS });
    try {
      const response = await fetch(`${h.url}/api/v1/chat/send/stream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'What is half of 8?' }] }),
      });
      expect(response.status).toBe(200);
      const events = parseSse(await response.text());
      expect(events.map((e) => e.event)).toEqual(['chunk', 'chunk', 'done']);
    } finally {
      stop();
    }

    const lines = h.logs.filter((l) => l.text.startsWith('[trace] send '));
    expect(lines).toHaveLength(1);
    const trace = JSON.parse(lines[0]!.text.slice('[trace] send '.length)) as SendTrace;
    expect(heard).toEqual([trace]);
    // `accepted` only on a connection's first request (its own test below).
    const { accepted, ...rest } = trace;
    if (accepted !== undefined) expect(accepted).toBeLessThanOrEqual(0);
    expect(Object.keys(rest).sort()).toEqual(SEND_PHASES.filter((p) => p !== 'accepted').sort());
    const at = (phase: (typeof SEND_PHASES)[number]) => trace[phase]!;
    // The goals and memories are read beside the transaction: both after auth, both before safety.
    expect(at('routed')).toBeGreaterThanOrEqual(0);
    expect(at('auth')).toBeGreaterThanOrEqual(at('routed'));
    for (const phase of ['begin', 'context'] as const) {
      expect(at(phase)).toBeGreaterThanOrEqual(at('auth'));
      expect(at('safety')).toBeGreaterThanOrEqual(at(phase));
    }
    const inOrder = SEND_PHASES.slice(SEND_PHASES.indexOf('safety')).map(at);
    expect(inOrder).toEqual([...inOrder].sort((a, b) => a - b));
    // The moderation call (before the model, so before modelCalled) is not taken for the model
    // request, which is written after the model was called, its answer the model's delay later.
    expect(fake.requests.some((r) => r.path.endsWith('/moderations'))).toBe(true);
    expect(at('firstUpstreamByte') - at('requestWritten')).toBeGreaterThanOrEqual(
      MODEL_THINKS_MS - 20,
    );
  });

  it("marks when a connection was accepted, on its first request only, on the listeners' clock", async () => {
    const user = await h.user('Ines');
    const heard: { trace: SendTrace; at: number }[] = [];
    const stop = onSendTrace((trace, at) => heard.push({ trace, at }));
    // One connection, kept alive: the second send goes on the connection the first one opened.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (question: string) =>
      new Promise<{ status: number; body: string; sentAt: number }>((resolve, reject) => {
        const body = JSON.stringify({ messages: [{ role: 'user', content: question }] });
        const sentAt = performance.timeOrigin + performance.now();
        const request = http.request(
          `${h.url}/api/v1/chat/send/stream`,
          {
            method: 'POST',
            agent,
            headers: {
              authorization: `Bearer ${user.token}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (piece: string) => (text += piece));
            response.on('end', () => resolve({ status: response.statusCode!, body: text, sentAt }));
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    let first, second;
    try {
      fake.script({ kind: 'chunks', chunks: ['Four.'] });
      first = await send('What is half of 8?');
      fake.script({ kind: 'chunks', chunks: ['Five.'] });
      second = await send('And half of 10?');
    } finally {
      stop();
      agent.destroy();
    }
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(parseSse(second.body).map((e) => e.event)).toEqual(['chunk', 'done']);
    expect(heard).toHaveLength(2);
    const [opened, reused] = heard;
    // Accepted before its headers were read (the zero), and not before the client sent it.
    expect(opened!.trace.accepted).toBeLessThanOrEqual(0);
    expect(opened!.trace.accepted).toBeLessThanOrEqual(opened!.trace.routed!);
    expect(opened!.at + opened!.trace.accepted!).toBeGreaterThanOrEqual(first.sentAt - 1);
    expect(opened!.at).toBeLessThanOrEqual(second.sentAt);
    // The kept-alive connection was accepted for the first send, not this one.
    expect(reused!.trace).not.toHaveProperty('accepted');
    expect(reused!.at).toBeGreaterThanOrEqual(second.sentAt - 1);
    expect(reused!.trace.firstWrite).toBeGreaterThanOrEqual(0);
  });

  it('traces only the streamed send, and nothing of a refused one', async () => {
    const before = h.logs.length;
    const refused = await fetch(`${h.url}/api/v1/chat/send/stream`, {
      method: 'POST',
      headers: { authorization: 'Bearer nope', 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello' }] }),
    });
    expect(refused.status).toBe(401);
    const user = await h.user('Noor');
    const plain = await h.as(user).post('/api/v1/chat/send', {
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(plain.status).toBe(200);
    expect(h.logs.slice(before).filter((l) => l.text.startsWith('[trace]'))).toEqual([]);
  });
});
