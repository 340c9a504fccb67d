// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';

import { fakeAuthAdapter } from '../../../fakes/auth';
import { fakeChatAdapter, streamOf } from '../../../fakes/chat';
import { fakeGoalsAdapter } from '../../../fakes/goals';
import { fakeSettingsAdapter } from '../../../fakes/settings';
import { fakeTeacherAdapter } from '../../../fakes/teacher';
import { fakeWalletAdapter } from '../../../fakes/wallet';
import type { Api } from '../../../src/api';
import { withAwardRefresh } from '../../../src/award-refresh';
import { REFRESH_WALLET_EVENT } from '../../../src/lib/messages';

let refreshes = 0;
const count = () => refreshes++;
window.addEventListener(REFRESH_WALLET_EVENT, count);
afterEach(() => {
  refreshes = 0;
});

function api(overrides: Partial<Api> = {}): Api {
  return withAwardRefresh({
    auth: fakeAuthAdapter(),
    chat: fakeChatAdapter(),
    goals: fakeGoalsAdapter(),
    wallet: fakeWalletAdapter(),
    settings: fakeSettingsAdapter(),
    teacher: fakeTeacherAdapter(),
    ...overrides,
  });
}

describe("the host's wallet refresh after awards", () => {
  it('fires refresh-wallet after onboarding, a reply, and a goal logged, changed or removed', async () => {
    const wrapped = api();
    await wrapped.auth.completeOnboarding({ interests: ['math'] });
    expect(refreshes).toBe(1);
    await wrapped.chat.send({ messages: [{ role: 'user', content: 'hi' }] });
    expect(refreshes).toBe(2);
    const { goals } = await wrapped.goals.listCurrent();
    const id = goals[0]!._id;
    await wrapped.goals.logProgress(id, { value: 1 });
    await wrapped.goals.update(id, { target_value: 20 });
    await wrapped.goals.remove(id);
    expect(refreshes).toBe(5);
  });

  it('after a streamed reply only once it is done', async () => {
    const wrapped = api({ chat: fakeChatAdapter({ sendStream: streamOf(['a', 'b']) }) });
    const seen: string[] = [];
    for await (const event of wrapped.chat.sendStream({ messages: [] })) {
      seen.push(event.type);
      expect(refreshes).toBe(0);
    }
    expect(seen.at(-1)).toBe('done');
    expect(refreshes).toBe(1);
  });

  it('not after a call that fails, nor after reads', async () => {
    const wrapped = api({
      chat: fakeChatAdapter({ send: () => Promise.reject(new Error('down')) }),
    });
    await expect(wrapped.chat.send({ messages: [] })).rejects.toThrow('down');
    await wrapped.goals.listCurrent();
    await wrapped.wallet.balance();
    expect(refreshes).toBe(0);
  });
});
