import type { ActorRefFrom } from 'xstate';

import { createContext } from '../ui/create-context';
import type { sessionsMachine } from './sessions.machine';

export type SessionsActorRef = ActorRefFrom<typeof sessionsMachine>;

/**
 * The session list actor of the enclosing `<ChatSidebar>`. A part rendered outside `<ChatSidebar>`
 * throws, naming itself: `useSessionsActor('ChatSessionList')`.
 */
export const [SessionsActorProvider, useSessionsActor] =
  createContext<SessionsActorRef>('ChatSidebar');
