/** Types of entries.mjs, for the budget test (tests/unit/bundle-budget.test.ts). */
export declare const ENTRIES: Record<string, string>;
export declare function measureEntry(
  root: string,
  entry: string,
): Promise<{ kb: number; bytes: Map<string, number> }>;
