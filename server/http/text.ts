/**
 * PostgreSQL text and jsonb cannot hold NUL (U+0000). Every string that may reach the database is
 * refused with one at the door (422, `value_error` on its field, this message); `errorResponse` says
 * the same for one that slipped through, rather than a 500.
 */
export const NUL_MESSAGE = 'Null characters are not allowed';

export const hasNoNul = (text: string) => !text.includes('\u0000');

/** For JSON values stored as jsonb: no NUL in any key or string inside. */
export const jsonHasNoNul = (value: unknown) => !JSON.stringify(value).includes('\\u0000');

/**
 * A lone UTF-16 surrogate (half of a pair, `"\ud800"` in JSON) is no character: jsonb refuses it and
 * text would store U+FFFD in its place. Strings that reach the database are refused with one (422).
 */
export const SURROGATE_MESSAGE = 'Text must not contain unpaired surrogate characters';

const LONE_SURROGATE = /\p{Cs}/u;

export const isWellFormed = (text: string) => !LONE_SURROGATE.test(text);

/** For JSON values stored as jsonb: every key and string inside well formed. */
export function jsonIsWellFormed(value: unknown): boolean {
  if (typeof value === 'string') return isWellFormed(value);
  if (Array.isArray(value)) return value.every(jsonIsWellFormed);
  if (value && typeof value === 'object')
    return Object.entries(value).every(([k, v]) => isWellFormed(k) && jsonIsWellFormed(v));
  return true;
}
