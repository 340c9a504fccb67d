/**
 * The tutor checks its maths: the model calls `check_math` / `solve_steps` over the real OpenAI wire
 * protocol (streamed `delta.tool_calls`, then a follow-up request carrying the `tool` messages), the
 * server runs them and feeds the results back. Also: broken tool calls, the round bound, and a model
 * that refuses tools (last in this file: the refusal is remembered for the server's life).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { TOOL_TIMEOUT_MS } from '../../../server/config';
import { MAX_TOOL_ROUNDS } from '../../../server/llm/model';
import { mathsReady } from '../../../server/llm/tools';
import type { CompletionBody, Script, WireMessage } from '../fake-openai';
import { FakeOpenAI } from '../fake-openai';
import type { Harness, HarnessOptions, TestUser } from '../harness';
import { describeServer, parseSse, useTestServer } from '../harness';
import { expectServerKeptAnswering, SLOW_EQUATION } from '../slow-maths';

const fake = new FakeOpenAI();
const options: HarnessOptions = { llm: {} };
/** The same model at the product's 1 s tool budget, for the call that must run out of it. */
const atProductBudget: HarnessOptions = { llm: {} };
beforeAll(async () => {
  await fake.start();
  const llm = { baseUrl: fake.url, model: 'tutor-test', stallMs: 5000, timeoutMs: 20_000 };
  // The calls here answer in milliseconds, but a busy runner can stretch that past 1 s: their
  // answers must not depend on the machine's speed, so this server gives them all the reply's time.
  options.llm = { ...llm, toolTimeoutMs: llm.timeoutMs };
  atProductBudget.llm = { ...llm, toolTimeoutMs: TOOL_TIMEOUT_MS };
  // As server/main.ts does at start (warmUpMaths): the engines load before the first tool call.
  await mathsReady();
});
afterAll(() => fake.close());
const h = useTestServer(options);

async function stream(user: TestUser, content: string, sessionId?: string, on: Harness = h) {
  const response = await fetch(on.url + '/api/v1/chat/send/stream', {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      messages: [{ role: 'user', content }],
      ...(sessionId ? { sessionId } : {}),
    }),
  });
  return { status: response.status, events: parseSse(await response.text()) };
}

const toolMessages = (body: CompletionBody) => body.messages.filter((m) => m.role === 'tool');
const toolResult = (message: WireMessage): unknown => JSON.parse(String(message.content));
const WRONG = 'Great job: $\\frac{3}{4} + \\frac{1}{8} = \\frac{5}{8}$!';
const CORRECTED =
  'Not quite: $\\frac{3}{4} = \\frac{6}{8}$, so $\\frac{3}{4} + \\frac{1}{8} = \\frac{7}{8}$.';

// The product's budget, met by an equation the engines work on for seconds (slower still on a busy
// machine): the fallback does not depend on how fast the runner is.
describeServer(`a tool call past the product's ${TOOL_TIMEOUT_MS} ms`, () => {
  const slow = useTestServer(atProductBudget);

  it('stops a tool call the engines would work on for seconds, and the server keeps answering', async () => {
    const user = await slow.user();
    const before = fake.completions().length;
    // mathsteps works on SLOW_EQUATION for seconds, synchronously: it must not hold the server.
    fake.script(
      {
        kind: 'tools',
        calls: [{ name: 'solve_steps', arguments: JSON.stringify({ problem: SLOW_EQUATION }) }],
      },
      { kind: 'chunks', chunks: ['Multiply both sides by each denominator, one at a time.'] },
    );
    const reply = stream(user, `Solve ${SLOW_EQUATION}`, undefined, slow);
    await expectServerKeptAnswering(slow.url, reply);
    const { events } = await reply;
    expect(events.at(-1)!.event).toBe('done');
    const [answer] = toolMessages(fake.completionBodies().slice(before)[1]!);
    expect(toolResult(answer!)).toEqual({ error: expect.stringContaining('took too long') });

    // The next call runs on a fresh thread, started as soon as the stuck one was ended (the pool is
    // the process's: asked through the roomy server, a cold thread on a busy runner has the time).
    await mathsReady();
    fake.script(
      {
        kind: 'tools',
        calls: [
          { name: 'check_math', arguments: JSON.stringify({ expression: '2 + 2', claimed: '4' }) },
        ],
      },
      { kind: 'chunks', chunks: ['Yes, 4.'] },
    );
    const after = fake.completions().length;
    await stream(await h.user(), 'Is 2 + 2 = 4?');
    const [check] = toolMessages(fake.completionBodies().slice(after)[1]!);
    expect(toolResult(check!)).toEqual({ correct: true, value: 4 });
  });
});

describeServer('the tutor checks its maths with tools', () => {
  it('checks a wrong claim, gets false back, and streams the corrected reply', async () => {
    const user = await h.user();
    const before = fake.completions().length;
    fake.script(
      {
        kind: 'tools',
        calls: [
          {
            name: 'check_math',
            arguments: JSON.stringify({ expression: '3/4 + 1/8', claimed: '5/8' }),
          },
        ],
      },
      // The model answers from what the tool said: wrong when told "correct", corrected when not.
      {
        kind: 'respond',
        to: (body) => {
          const verdict = toolResult(toolMessages(body)[0]!) as { correct?: boolean };
          return { kind: 'chunks', chunks: verdict.correct === false ? [CORRECTED] : [WRONG] };
        },
      },
    );
    const { status, events } = await stream(user, 'Is 3/4 + 1/8 = 5/8?');
    expect(status).toBe(200);

    const requests = fake.completionBodies().slice(before);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.tools?.map((t) => t.function.name).sort()).toEqual([
      'check_math',
      'solve_steps',
    ]);
    // The follow-up carries the assistant's call and the tool message with the server's verdict.
    const [call] = requests[1]!.messages.filter((m) => m.role === 'assistant' && m.tool_calls);
    expect(call!.tool_calls).toEqual([
      {
        id: expect.any(String),
        type: 'function',
        function: { name: 'check_math', arguments: '{"expression":"3/4 + 1/8","claimed":"5/8"}' },
      },
    ]);
    const [tool] = toolMessages(requests[1]!);
    expect(tool!.tool_call_id).toBe(call!.tool_calls![0]!.id);
    expect(toolResult(tool!)).toEqual({ correct: false, value: 0.875 });

    expect(events.map((e) => e.event)).toEqual(['status', 'chunk', 'done']);
    expect(events[0]!.data).toBe('Checking the maths…');
    expect(events[2]!.data.response).toBe(CORRECTED);
    const stored = await h.sql<{ role: string; content: string }>(
      sql`select role, content from chat_messages where user_id = ${user.id} order by created_at, id`,
    );
    expect(stored.map((m) => m.content)).toEqual(['Is 3/4 + 1/8 = 5/8?', CORRECTED]);
  });

  it('answers tool calls with bad arguments with an error the model reads, then a clean reply', async () => {
    const user = await h.user();
    const before = fake.completions().length;
    fake.script(
      {
        kind: 'tools',
        chunks: ['Let me check. '],
        calls: [
          { name: 'check_math', arguments: '{"expression": "2*x + 3 = 11", "claimed": ' }, // cut off
          { name: 'check_math', arguments: '{"expression": 42, "claimed": ["x", 4]}' }, // wrong types
          { name: 'solve_steps', arguments: '{}' }, // missing field
          { name: 'wolfram_alpha', arguments: '{"q": "2+2"}' }, // no such tool
          { name: 'check_math', arguments: JSON.stringify({ expression: '(((((' }) }, // not maths
        ],
      },
      { kind: 'chunks', chunks: ['Subtract 3 from both sides first: ', '$2x = 8$.'] },
    );
    const { status, events } = await stream(user, 'Solve 2x + 3 = 11');
    expect(status).toBe(200);
    expect(events.at(-1)!.event).toBe('done');
    expect(events.at(-1)!.data.response).toBe(
      'Let me check. Subtract 3 from both sides first: $2x = 8$.',
    );
    expect(events.filter((e) => e.event === 'error')).toEqual([]);

    const requests = fake.completionBodies().slice(before);
    expect(requests).toHaveLength(2);
    // Every call got an answer the model can read (an error for each broken one), in order.
    const answers = toolMessages(requests[1]!);
    expect(answers).toHaveLength(5);
    for (const answer of answers.slice(0, 4))
      expect(String(answer.content)).toMatch(/invalid|error|no such tool|unavailable/i);
    expect(toolResult(answers[4]!)).toEqual({ error: expect.stringContaining('Could not read') });
    expect(h.logs.filter((l) => l.level === 'error')).toEqual([]);

    // And /send (not streamed) answers 200 the same way.
    fake.script(
      { kind: 'tools', calls: [{ name: 'check_math', arguments: '{"expression":' }] },
      { kind: 'chunks', chunks: ['$x = 4$.'] },
    );
    const plain = await h
      .as(user)
      .post('/api/v1/chat/send', { messages: [{ role: 'user', content: 'And 2x = 8?' }] });
    expect(plain.status).toBe(200);
    expect(plain.body.response).toBe('$x = 4$.');
  });

  it(`stops after ${MAX_TOOL_ROUNDS} tool rounds, each round's tools answered in time`, async () => {
    const user = await h.user();
    const before = fake.completions().length;
    // A model that would check forever; like real endpoints it obeys tool_choice "none".
    const keepChecking: Script = {
      kind: 'respond',
      to: (body) =>
        body.tool_choice === 'none'
          ? { kind: 'chunks', chunks: ['So $x = 3$ or $x = -3$.'] }
          : {
              kind: 'tools',
              calls: [
                { name: 'solve_steps', arguments: JSON.stringify({ problem: 'x^2 - 9 = 0' }) },
                {
                  name: 'check_math',
                  arguments: JSON.stringify({
                    expression: 'x^2 - 9 = 0',
                    claimed: 'x = 3 or x = -3',
                  }),
                },
              ],
            },
    };
    fake.script(...Array.from({ length: MAX_TOOL_ROUNDS + 1 }, () => keepChecking));
    const { events } = await stream(user, 'Solve x^2 - 9 = 0');
    expect(events.at(-1)!.event).toBe('done');
    expect(events.at(-1)!.data.response).toBe('So $x = 3$ or $x = -3$.');
    // The status shows once a checking stretch, never as text.
    expect(events.filter((e) => e.event === 'status')).toHaveLength(1);

    const seen = fake.completions().slice(before);
    expect(seen).toHaveLength(MAX_TOOL_ROUNDS + 1);
    const bodies = seen.map((r) => r.body as CompletionBody);
    expect(bodies.slice(0, MAX_TOOL_ROUNDS).map((b) => b.tool_choice ?? 'auto')).not.toContain(
      'none',
    );
    expect(bodies[MAX_TOOL_ROUNDS]!.tool_choice).toBe('none');
    const last = toolMessages(bodies[MAX_TOOL_ROUNDS]!);
    expect(last).toHaveLength(2 * MAX_TOOL_ROUNDS);
    expect(toolResult(last[1]!)).toEqual({ correct: true, solutions: expect.any(String) });
    expect(toolResult(last[0]!)).toMatchObject({ answer: expect.any(String) });

    // Every round's two tools ran to an answer within their time (a late one answers 'took too long').
    for (const body of bodies.slice(1)) {
      const results = toolMessages(body).map((m) => toolResult(m) as { error?: string });
      expect(results.filter((r) => r.error !== undefined)).toEqual([]);
    }
  });

  it('answers without tools when the model refuses them, and remembers the refusal', async () => {
    const user = await h.user();
    const before = fake.completions().length;
    fake.refuseTools = true;
    fake.script({ kind: 'chunks', chunks: ['Take away 3 ', 'from both sides.'] });
    const first = await stream(user, 'Solve 2x + 3 = 11');
    expect(first.events.map((e) => e.event)).toEqual(['chunk', 'chunk', 'done']);
    expect(first.events.at(-1)!.data.response).toBe('Take away 3 from both sides.');
    expect(fake.toolRefusals).toBe(1);

    fake.script({ kind: 'chunks', chunks: ['Then divide by 2.'] });
    const second = await stream(user, 'Next?', first.events.at(-1)!.data.sessionId);
    expect(second.events.at(-1)!.data.response).toBe('Then divide by 2.');

    const bodies = fake.completionBodies().slice(before);
    // Refused once (with tools), answered without; the next reply never offers tools again.
    expect(bodies.map((b) => Boolean(b.tools?.length))).toEqual([true, false, false]);
    expect(fake.toolRefusals).toBe(1);
    expect(bodies[2]!.tool_choice).toBeUndefined();
  });
});
