/**
 * PostgreSQL text and jsonb cannot hold NUL (U+0000). Every string that may reach the database is
 * refused with one at the door (422, `value_error` on its field, this message); `errorResponse` says
 * the same for one that slipped through, rather than a 500.
 */
export const NUL_MESSAGE = 'Null characters are not allowed';

export const hasNoNul = (text: string) => !text.includes('\u0000');

/** For JSON values stored as jsonb: no NUL in any key or string inside. */
export const jsonHasNoNul = (value: unknown) => !JSON.stringify(value).includes('\\u0000');
