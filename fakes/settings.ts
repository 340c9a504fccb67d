/**
 * A fake SettingsAdapter for machine tests, component tests and stories: an archive held in memory
 * (paged 50 at a time like the server), and profile, password, export and deletion calls that succeed
 * unless replaced. Each call is recorded in `calls`. No test framework is imported, so stories share it.
 */
import type { User } from '../src/auth/auth.adapter';
import type { ChatSession } from '../src/chat/chat.adapter';
import type { AccountExport, SettingsAdapter } from '../src/settings/settings.adapter';
import { user as sampleUser } from './auth';
import { session } from './chat';

export { apiError, deferred, never } from './auth';

/** An email account. */
export const emailUser: User = {
  ...sampleUser,
  bio: 'I like maths.',
  profile: { ...sampleUser.profile, bio: 'I like maths.' },
  interests: ['math'],
};
/** A Google account: no password to change. */
export const googleUser: User = {
  ...sampleUser,
  id: 'user-google',
  email: 'gus@gmail.com',
  display_name: 'Gus',
  profile: { display_name: 'Gus', bio: '', avatar_url: null },
  is_google: true,
};
/** A wallet account: no email, no password. */
export const walletUser: User = {
  ...sampleUser,
  id: 'user-wallet',
  email: '',
  display_name: '0xAbC1…9f3E',
  profile: { display_name: '0xAbC1…9f3E', bio: '', avatar_url: null },
  wallet_address: '0xabc1000000000000000000000000000000009f3e',
};

/** `count` archived chats, newest first. */
export function archivedSessions(count: number): ChatSession[] {
  return Array.from({ length: count }, (_, i) =>
    session(
      `a${i + 1}`,
      `Archived chat ${i + 1}`,
      new Date(Date.UTC(2025, 2, 28) - i * 3_600_000).toISOString(),
    ),
  );
}

export const sampleExport: AccountExport = {
  exported_at: '2025-03-14T09:00:00Z',
  user: { id: sampleUser.id, email: sampleUser.email },
  avatar: null,
  chats: [],
  goals: [],
  points_ledger: [],
  conversions: [],
  learning_memory: [],
  portal_identities: [],
  classes: [],
  safety_alerts: [],
};

export type SettingsCall = { method: keyof SettingsAdapter; args: unknown[] };
export type FakeSettingsAdapter = SettingsAdapter & {
  calls: SettingsCall[];
  /** The archived chats the fake holds now. */
  archived: ChatSession[];
};

/** A fake SettingsAdapter over `archived`; `overrides` replace single calls. */
export function fakeSettingsAdapter(
  overrides: Partial<SettingsAdapter> = {},
  {
    archived = archivedSessions(3),
    user = emailUser,
  }: { archived?: ChatSession[]; user?: User } = {},
): FakeSettingsAdapter {
  const calls: SettingsCall[] = [];
  const state = { archived: [...archived] };
  const drop = (id: string) => {
    state.archived = state.archived.filter((s) => s.id !== id);
    return { message: 'ok' };
  };
  const base: SettingsAdapter = {
    updateProfile: async (body) => ({
      user: {
        ...user,
        display_name: body.display_name,
        bio: body.bio,
        interests: body.interests ?? user.interests,
        profile: { ...user.profile, display_name: body.display_name, bio: body.bio },
      },
    }),
    uploadAvatar: async () => ({
      user: { ...user, profile: { ...user.profile, avatar_url: 'https://example.org/avatar.png' } },
    }),
    changePassword: async () => ({ message: 'Password changed' }),
    exportData: async () => sampleExport,
    deleteAccount: async () => ({ message: 'Account deleted' }),
    listArchived: async ({ limit = 50, page = 1 } = {}) => ({
      sessions: state.archived.slice((page - 1) * limit, page * limit),
      total: state.archived.length,
      page,
      limit,
      hasMore: page * limit < state.archived.length,
    }),
    unarchiveSession: async (id) => {
      const found = state.archived.find((s) => s.id === id)!;
      drop(id);
      return found;
    },
    deleteArchivedSession: async (id) => drop(id),
    archiveAll: async () => ({ message: 'ok' }),
    deleteAll: async () => {
      state.archived = [];
      return { message: 'ok' };
    },
    ...overrides,
  };
  const recorded = Object.fromEntries(
    Object.entries(base).map(([method, call]) => [
      method,
      (...args: unknown[]) => {
        calls.push({ method: method as keyof SettingsAdapter, args: args.slice(0, -1) });
        return (call as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as SettingsAdapter;
  return Object.defineProperties(Object.assign(recorded, { calls }), {
    archived: { get: () => state.archived },
  }) as FakeSettingsAdapter;
}

/** The calls that change something (Settings reads the archive as it mounts, whatever the tab). */
export const changes = (adapter: FakeSettingsAdapter) =>
  adapter.calls.filter((call) => call.method !== 'listArchived');
