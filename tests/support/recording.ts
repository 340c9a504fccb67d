import {
  type Actor,
  type ActorOptions,
  type AnyActorLogic,
  type AnyActorRef,
  createActor,
  type EmittedFrom,
} from 'xstate';

/**
 * Starts `logic` and records what it emits, subscribed before start so an event of the first
 * transition is kept. Machine tests read `emitted` (notices, toasts, refresh requests) in order.
 */
export function startRecording<TLogic extends AnyActorLogic>(
  logic: TLogic,
  options?: ActorOptions<TLogic>,
) {
  const actor = createActor(logic as AnyActorLogic, options) as Actor<TLogic>;
  const emitted: EmittedFrom<TLogic>[] = [];
  (actor as AnyActorRef).on('*', (event: EmittedFrom<TLogic>) => emitted.push(event));
  actor.start();
  return { actor, emitted };
}
