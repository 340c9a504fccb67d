/**
 * The wire types every feature's adapter shares: call options, paging, plain confirmations. A leaf
 * module: adapters import it, and `api.ts`, which gathers the adapters, re-exports it.
 */

/** The last argument of every adapter call: machines pass the signal `fromPromise` gives them. */
export type CallOptions = {
  signal?: AbortSignal;
};

/** `?limit&page` of a paged call; `page` counts from 1. */
export type PageQuery = {
  limit?: number;
  page?: number;
};

/** A paged answer: `{<items>, total, page, limit, hasMore}`, the items under the key `K`. */
export type Paged<K extends string, T> = { [P in K]: T[] } & {
  total: number;
  page: number;
  limit: number;
  hasMore: boolean;
};

/** The answer of calls that only confirm: `{message}`. */
export type MessageResponse = {
  message: string;
};
