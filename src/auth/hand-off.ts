import { fromPromise } from 'xstate';

import { stubActor } from '../lib/stub-actor';
import { unlessAborted } from './auth.notices';

/** The session's side of a sign-in: what a machine that ends signed in hands its tokens to. */
export type SignInHost = { signIn(token: string, refreshToken?: string | null): unknown };

/** The tokens a machine hands to the session. */
export type HandOffTokens = { token: string; refreshToken: string | null };

/** The `signIn` actor's stub (it fails loudly) until the machine's logic provides `handOff(host)`. */
export const signInStub = stubActor<unknown, HandOffTokens>('signIn');

/** The `signIn` invoke's input: the tokens a machine holds in its context. */
export function heldTokens({
  context,
}: {
  context: { token: string | null; refreshToken: string | null };
}): HandOffTokens {
  return { token: context.token ?? '', refreshToken: context.refreshToken };
}

/**
 * The `signIn` actor: hands the tokens to the session. With `whileRunning`, the answer of a call
 * whose actor was stopped meanwhile never arrives (`unlessAborted`): the verify-email page signs in
 * as it mounts, and React's StrictMode restarts it in place.
 */
export function handOff(host: SignInHost, { whileRunning = false } = {}) {
  return fromPromise<unknown, HandOffTokens>(({ input, signal }) => {
    const signIn = async () => host.signIn(input.token, input.refreshToken);
    return whileRunning ? unlessAborted(signIn(), signal) : signIn();
  });
}
