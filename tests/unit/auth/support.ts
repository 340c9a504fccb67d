import { type ActorOptions, type AnyActorLogic, type AnyActorRef, waitFor } from 'xstate';

import type { AuthNotice } from '../../../src/auth/auth.notices';
import { startRecording } from '../../support/recording';

/**
 * Starts `logic` and records what it emits (subscribed before start, so a notice of the first
 * transition is kept).
 */
export function start<TLogic extends AnyActorLogic>(logic: TLogic, options?: ActorOptions<TLogic>) {
  const { actor, emitted } = startRecording(logic, options);
  return { actor, notices: emitted as AuthNotice[] };
}

/** Waits until the actor's snapshot matches `value` (a state value, as `snapshot.matches` takes). */
export function settle(actor: AnyActorRef, value: unknown) {
  return waitFor(actor, (snapshot) => snapshot.matches(value), { timeout: 1000 });
}

/** Lets pending promise callbacks run. */
export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

export function toasts(notices: AuthNotice[]) {
  return notices.flatMap((notice) =>
    notice.type === 'notify' ? [`${notice.tone}: ${notice.message}`] : [],
  );
}

export function paths(notices: AuthNotice[]) {
  return notices.flatMap((notice) => (notice.type === 'route.navigate' ? [notice.path] : []));
}

/**
 * An unsigned JWT with `claims` (times in seconds), as the session reads its own token: the client
 * never checks the signature, so a placeholder does.
 */
export function fakeJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'user-1', ...claims })}.signature`;
}
