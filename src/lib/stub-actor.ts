import { fromPromise } from 'xstate';

/*
 * Machines declare their side effects as stubs that fail loudly, and `<f>Logic(adapter)` provides
 * the real ones (STYLE.md, habit 4). Not part of `ayah-coach/rules` (src/lib/index.ts): the rules
 * stay free of xstate for the server.
 */

/** The error a missing implementation throws: `send must be provided[: how to provide it]`. */
export function notProvided(name: string, hint?: string): Error {
  return new Error(hint ? `${name} must be provided: ${hint}` : `${name} must be provided`);
}

/**
 * The stub of the actor `name`, which `<f>Logic(adapter)` replaces: it fails loudly, so a machine
 * created without its adapter names the missing call instead of hanging.
 * `stubActor<ChatSendResponse, SendStreamInput>('sendStream', 'create the chat with chatLogic(adapter)')`.
 */
export function stubActor<TOutput, TInput = void>(name: string, hint?: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw notProvided(name, hint);
  });
}
