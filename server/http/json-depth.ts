/**
 * Free-form JSON fields (`metadata`, `dashboardData`) nest at most MAX_JSON_DEPTH levels. A body
 * nested thousands deep parses, but every recursive walk after it (JSON.stringify in a size check,
 * a database's JSON parser) can overflow its stack: a 500. The check here walks without recursion.
 */

/** How many levels of objects and arrays a free-form JSON field may nest (`{"a":1}` is one). */
export const MAX_JSON_DEPTH = 32;

export const JSON_DEPTH_MESSAGE = `Must nest at most ${MAX_JSON_DEPTH} levels of objects and arrays`;

/** Whether `value` nests at most `max` levels of objects and arrays. */
export function withinJsonDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return false;
    for (const child of Array.isArray(item) ? item : Object.values(item))
      pending.push([child, depth + 1]);
  }
  return true;
}

/** The zod refinement: checked first, and the checks after it are skipped when it fails. */
export const jsonDepthCheck = [
  (value: unknown) => withinJsonDepth(value),
  { message: JSON_DEPTH_MESSAGE, abort: true },
] as const;
