import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { chatMachine } from './chat.machine';

export type ChatActorRef = ActorRefFrom<typeof chatMachine>;

/** The conversation actor of the enclosing `<Chat>`; its parts read and drive it. */
export const ChatActorContext = createContext<ChatActorRef | null>(null);

/** The enclosing chat's actor. A part rendered outside `<Chat>` throws, naming itself. */
export function useChatActor(part: string): ChatActorRef {
  const actor = useContext(ChatActorContext);
  if (!actor) throw new Error(`\`${part}\` must be used within \`<Chat>\``);
  return actor;
}
