import type { Api } from './api';
import { refreshWallets } from './lib/wallet-events';

/** Fires 'refresh-wallet' once `answer` has settled well, and hands it on unchanged. */
async function thenRefresh<T>(answer: Promise<T>): Promise<T> {
  const value = await answer;
  refreshWallets();
  return value;
}

/**
 * The api, with every call that can award (or take back) points followed by the wallet refresh, so
 * that the sidebar's wallet modal and the wallet page show the new balance (API.md, "Points and
 * tokens"): onboarding completed, a reply to a message (the 10th earns), and a goal's progress,
 * target or removal (a goal at 100 % earns; under 100 % again, or deleted, the award goes back).
 */
export function withAwardRefresh(api: Api): Api {
  const { auth, chat, goals } = api;
  return {
    ...api,
    auth: {
      ...auth,
      completeOnboarding: (...args) => thenRefresh(auth.completeOnboarding(...args)),
    },
    chat: {
      ...chat,
      send: (...args) => thenRefresh(chat.send(...args)),
      sendStream: (...args) => ({
        async *[Symbol.asyncIterator]() {
          let done = false;
          for await (const event of chat.sendStream(...args)) {
            if (event.type === 'done') done = true;
            yield event;
          }
          if (done) refreshWallets();
        },
      }),
    },
    goals: {
      ...goals,
      logProgress: (...args) => thenRefresh(goals.logProgress(...args)),
      update: (...args) => thenRefresh(goals.update(...args)),
      remove: (...args) => thenRefresh(goals.remove(...args)),
    },
  };
}
