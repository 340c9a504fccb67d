import { createContext as createReactContext, type ReactNode, use } from 'react';

/** A part was rendered outside the root that provides what it reads. */
export class MissingProviderError extends Error {
  override readonly name: string = 'MissingProviderError';
  constructor(part: string, root: string) {
    super(`\`${part}\` must be used within \`<${root}>\``);
  }
}

/**
 * A context private to one root component, in Radix's manner (`create-context.tsx`): the provider,
 * and a hook whose caller names itself, so a part used outside its root says where it belongs:
 * "`ChatThread` must be used within `<Chat>`". With `defaultValue` the hook returns it instead.
 *
 * ```tsx
 * const [ChatProvider, useChatContext] = createContext<ChatActorRef>('Chat');
 * const actor = useChatContext('ChatThread');
 * ```
 * `MissingError` lets a feature throw its own, documented error class.
 */
export function createContext<T>(
  rootName: string,
  defaultValue?: T,
  MissingError: new (part: string, root: string) => Error = MissingProviderError,
) {
  const Context = createReactContext<T | undefined>(defaultValue);
  Context.displayName = `${rootName}Context`;

  function Provider({ value, children }: { value: T; children?: ReactNode }) {
    return <Context value={value}>{children}</Context>;
  }
  Provider.displayName = `${rootName}Provider`;

  function useContext(part: string): T {
    const value = use(Context);
    if (value !== undefined) return value;
    throw new MissingError(part, rootName);
  }

  return [Provider, useContext] as const;
}
