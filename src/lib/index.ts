/** The library's pure helpers: every limit, rule and message of the spec, once. */
export * from './chat';
export * from './class-csv';
export * from './goals';
export * from './labels';
export * from './limits';
export * from './links';
export { normalizeMath } from './math';
export * from './messages';
export * from './password';
export * from './points';
export * from './progress';
export * from './safety';
export * from './validation';
export * from './wallet';
