/**
 * Settings given as a JSON list of objects (`AYAH_TRUSTED_ISSUERS`, `AYAH_LTI_PLATFORMS`): read and
 * checked once at start, a mistake stops the server with a sentence naming the variable, the entry and
 * the field. A shared layer under the domains that own such lists: it knows no domain.
 */

/** Throws the variable's sentence: what the list must hold, then what is wrong. */
export type Fail = (reason: string) => never;

/** `fail` for one variable: `<name> must be <shape>: <reason>`. */
export function failWith(name: string, shape: string): Fail {
  return (reason) => {
    throw new Error(`${name} must be ${shape}: ${reason}`);
  };
}

/** The trimmed string `entry[field]`, or `fail` when it is missing, not a string or blank. */
export function entryText(
  entry: Record<string, unknown>,
  field: string,
  where: string,
  fail: Fail,
): string {
  const value = entry[field];
  if (typeof value !== 'string' || value.trim() === '')
    fail(`${where} needs "${field}" (a non-empty string)`);
  return value.trim();
}

/**
 * Parses `value` as a JSON list of objects with only `fields`, each through `parse` (given the entry
 * and its name, `entry N`). Unset or blank is the empty list.
 */
export function parseEntries<T>(
  value: string | undefined,
  fields: ReadonlySet<string>,
  fail: Fail,
  parse: (entry: Record<string, unknown>, where: string) => T,
): T[] {
  if (value === undefined || value.trim() === '') return [];
  let list: unknown;
  try {
    list = JSON.parse(value);
  } catch {
    fail('it is not valid JSON');
  }
  if (!Array.isArray(list)) fail('it is not a list');
  return list.map((entry: unknown, index) => {
    const where = `entry ${index + 1}`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry))
      fail(`${where} is not an object`);
    const known = entry as Record<string, unknown>;
    const unknown = Object.keys(known).filter((field) => !fields.has(field));
    if (unknown.length > 0) fail(`${where} has unknown field(s) ${unknown.join(', ')}`);
    return parse(known, where);
  });
}
