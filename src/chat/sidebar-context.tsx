import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { sessionsMachine } from './sessions.machine';

export type SessionsActorRef = ActorRefFrom<typeof sessionsMachine>;

/** The session list actor of the enclosing `<ChatSidebar>`. */
export const SessionsActorContext = createContext<SessionsActorRef | null>(null);

/** The enclosing sidebar's session list. A part rendered outside `<ChatSidebar>` throws, naming itself. */
export function useSessionsActor(part: string): SessionsActorRef {
  const actor = useContext(SessionsActorContext);
  if (!actor) throw new Error(`\`${part}\` must be used within \`<ChatSidebar>\``);
  return actor;
}
