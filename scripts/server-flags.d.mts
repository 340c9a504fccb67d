/** Types of server-flags.mjs, for bench:class and the tests. */
export declare const SERVER_NODE_FLAGS: readonly string[];
