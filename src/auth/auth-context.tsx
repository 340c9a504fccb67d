import type { ActorRefFrom } from 'xstate';

import { createContext, MissingProviderError } from '../ui/create-context';
import type { sessionMachine } from './session/session.machine';

export type SessionActorRef = ActorRefFrom<typeof sessionMachine>;

/** `useAuth` (or another part of the session) was used outside `<AuthProvider>`. */
export class MissingAuthProviderError extends MissingProviderError {
  override readonly name = 'MissingAuthProviderError';
  constructor(part: string) {
    super(part, 'AuthProvider');
  }
}

/**
 * The session actor of the enclosing `<AuthProvider>`; `useAuth` reads and drives it. A part used
 * outside `<AuthProvider>` throws a `MissingAuthProviderError` naming itself: `useSessionActor('useAuth')`.
 */
export const [SessionActorProvider, useSessionActor] = createContext<SessionActorRef>(
  'AuthProvider',
  undefined,
  MissingAuthProviderError,
);
