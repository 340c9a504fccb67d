import { fromPromise } from 'xstate';
import type { User } from './settings.adapter';

/** What the settings machines ask their components to do, as emitted events. */
export type SettingsNotice =
  | { type: 'notify'; tone: 'success' | 'error'; message: string }
  /** The server answered with a fresher user: the host adopts it (`useAuth().updateUser`). */
  | { type: 'user.updated'; user: User }
  /** The chat lists changed: the component fires 'refresh-chat-history'. */
  | { type: 'chats.changed' };

/** The stub of an actor that `<f>Logic(adapter)` replaces; it fails loudly, naming the call. */
export function stub<TOutput, TInput>(name: string, logic: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`${name} must be provided: create the machine with ${logic}(adapter)`);
  });
}
