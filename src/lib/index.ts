/** The library's pure helpers: every limit, rule and message of the spec, once. */
export { cn } from './cn';
export * from './limits';
export * from './labels';
export * from './messages';
export * from './password';
export * from './progress';
export * from './validation';
export * from './wallet';
export * from './points';
export * from './goals';
export * from './chat';
export { normalizeMath } from './math';
export * from './links';
export * from './safety';
export * from './class-csv';
