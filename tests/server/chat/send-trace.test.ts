/**
 * AYAH_TRACE_SENDS=1 (http/send-trace.ts, issue 26): a streamed send logs where its time went, each
 * phase's end in ms since it arrived, in order, with the model request's own phases taken from the
 * model call (not from the moderation call before it); bench:class reads the same traces.
 */
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
    expect(Object.keys(trace).sort()).toEqual([...SEND_PHASES].sort());
    const at = (phase: (typeof SEND_PHASES)[number]) => trace[phase]!;
    // The goals and memories are read beside the transaction: both after auth, both before safety.
    expect(at('routed')).toBeGreaterThanOrEqual(0);
    expect(at('auth')).toBeGreaterThanOrEqual(at('routed'));
    for (const phase of ['begin', 'context'] as const) {
      expect(at(phase)).toBeGreaterThanOrEqual(at('auth'));
      expect(at('safety')).toBeGreaterThanOrEqual(at(phase));
    }
    const inOrder = SEND_PHASES.slice(4).map(at);
    expect(inOrder).toEqual([...inOrder].sort((a, b) => a - b));
    // The moderation call (before the model, so before modelCalled) is not taken for the model
    // request, which is written after the model was called, its answer the model's delay later.
    expect(fake.requests.some((r) => r.path.endsWith('/moderations'))).toBe(true);
    expect(at('firstUpstreamByte') - at('requestWritten')).toBeGreaterThanOrEqual(
      MODEL_THINKS_MS - 20,
    );
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
