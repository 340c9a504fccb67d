import type { ActorRefFrom } from 'xstate';

import { createContext } from '../ui/create-context';
import type { chatMachine } from './chat.machine';

export type ChatActorRef = ActorRefFrom<typeof chatMachine>;

/**
 * The conversation actor of the enclosing `<Chat>`; its parts read and drive it. A part rendered
 * outside `<Chat>` throws, naming itself: `useChatActor('ChatThread')`.
 */
export const [ChatActorProvider, useChatActor] = createContext<ChatActorRef>('Chat');
