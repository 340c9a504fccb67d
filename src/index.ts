// The public surface of ayah-coach, and nothing else.

// The API seam: what every feature talks to, and the adapter that speaks API.md over HTTP.
export type * from './api';
export { withAwardRefresh } from './award-refresh';
export { createHttpApi, type HttpApiOptions } from './http';
export { ApiError, isAbortError } from './lib/http-errors';
export type { Notice } from './lib/notices';

// UI primitives and the scope every Ayah component renders in, and the class-name helper they use
// (`ay:`-prefixed utilities, a later one winning: tailwind-merge, kept out of ayah-coach/rules).
export { cn } from './lib/cn';
export * from './ui';

// The features each have their own entry: ayah-coach/auth, /chat, /goals, /wallet, /settings, /markdown.
