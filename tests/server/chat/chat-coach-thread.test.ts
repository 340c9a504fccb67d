/**
 * The offline coach works out maths in the maths thread: a question the engines would work on for
 * seconds gets a kind answer within the coach's time, and every other request keeps being answered.
 */
import { beforeAll, expect, it } from 'vitest';

import { mathsReady } from '../../../server/llm/tools';
import { COACH_TOO_HARD } from '../../../server/tutor/service';
import { describeServer, useTestServer } from '../harness';
import { expectServerKeptAnswering, SLOW_EQUATION } from '../slow-maths';

const h = useTestServer();
// As server/main.ts does at start: the engines load before the first question.
beforeAll(() => mathsReady());

describeServer('the offline coach in the maths thread', () => {
  it('answers a question too big to work out in time kindly, without holding the server', async () => {
    const user = await h.user();
    const reply = h
      .as(user)
      .post('/api/v1/chat/send', { messages: [{ role: 'user', content: SLOW_EQUATION }] });
    await expectServerKeptAnswering(h.url, reply);
    const answer = await reply;
    expect(answer.status).toBe(200);
    // The kind answer is the budget (2 s) at work: the engines alone take 5 s and more on this equation
    // and would have answered it, so no clock is needed to tell.
    expect(answer.body.response).toContain(COACH_TOO_HARD);

    // A fresh thread answers the next question step by step.
    await mathsReady();
    const next = await h
      .as(user)
      .post('/api/v1/chat/send', { messages: [{ role: 'user', content: 'Solve 2x + 3 = 11' }] });
    expect(next.status).toBe(200);
    expect(next.body.response).toMatch(/\$/);
    expect(next.body.response).not.toContain(COACH_TOO_HARD);
  });
});
