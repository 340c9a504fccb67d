/*
 * The "list + target by id + confirm" machines (chat sessions, goals, archived chats): an event names
 * one item of the list by id (`sessionId`, `goalId`); the machine keeps that item as its `target`
 * while a dialog or a call is about it, and drops it from the list once it is gone.
 */

/** The item of `items` that `event[key]` names, or null when the event names none or the list lacks it. */
export function itemNamed<T>(
  items: readonly T[],
  event: object,
  key: string,
  idOf: (item: T) => string,
): T | null {
  if (!(key in event)) return null;
  const id: unknown = (event as Record<string, unknown>)[key];
  return items.find((item) => idOf(item) === id) ?? null;
}

/** `items` without the target (the same list when there is none). */
export function withoutTarget<T>(items: readonly T[], target: T | null, idOf: (item: T) => string) {
  return target ? items.filter((item) => idOf(item) !== idOf(target)) : [...items];
}
