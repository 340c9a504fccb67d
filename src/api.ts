/**
 * The seam between the components and a backend: one adapter per feature. `createHttpApi` (src/http.ts)
 * builds the one that speaks the REST contract of API.md; a story or a test passes a fake instead.
 * Every call takes `{ signal }` last and rejects with an `ApiError`, or with an `AbortError` when its
 * signal aborts.
 */
import type { AuthAdapter } from './auth/auth.adapter';
import type { ChatAdapter } from './chat/chat.adapter';
import type { GoalsAdapter } from './goals/goals.adapter';
import type { SettingsAdapter } from './settings/settings.adapter';
import type { TeacherAdapter } from './teacher/teacher.adapter';
import type { WalletAdapter } from './wallet/wallet.adapter';

/** Every backend the components talk to, one adapter per feature. */
export type Api = {
  auth: AuthAdapter;
  chat: ChatAdapter;
  goals: GoalsAdapter;
  wallet: WalletAdapter;
  settings: SettingsAdapter;
  teacher: TeacherAdapter;
};

export type * from './auth/auth.adapter';
export type * from './chat/chat.adapter';
export type * from './goals/goals.adapter';
export type * from './settings/settings.adapter';
export type * from './teacher/teacher.adapter';
export type * from './wallet/wallet.adapter';
export type * from './wire';
