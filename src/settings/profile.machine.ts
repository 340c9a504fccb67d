import { assign, emit, fromPromise, setup } from 'xstate';

import type { Subject } from '../lib/limits';
import { PROFILE_MESSAGES, SETTINGS_MESSAGES, VALIDATION_MESSAGES } from '../lib/messages';
import { stubActor } from '../lib/stub-actor';
import { validateAvatar, validateProfile } from '../lib/validation';
import type { User, UserResponse } from './settings.adapter';
import type { SettingsAdapter, UpdateProfileRequest } from './settings.adapter';
import type { SettingsNotice } from './settings.notices';

const HOW = 'create the machine with profileLogic(adapter)';

export type ProfileForm = { displayName: string; bio: string; interests: Subject[] };

export type ProfileContext = {
  form: ProfileForm;
  /** What the server holds, to tell a change from none. */
  saved: ProfileForm;
  /** The picked image's preview URL while it uploads, then the server's. */
  avatarUrl: string | null;
  /** The server's avatar URL, shown again when an upload fails. */
  savedAvatarUrl: string | null;
  /** Why the picked file was refused. */
  avatarError: string | null;
  /** Why the form was not saved. */
  error: string | null;
};

export type ProfileEvent =
  | { type: 'profile.edit'; field: 'displayName' | 'bio'; value: string }
  | { type: 'interest.toggle'; subject: Subject }
  | { type: 'profile.save' }
  | { type: 'avatar.pick'; file: File | (Blob & { name?: string }); preview: string | null }
  | { type: 'user.sync'; user: User };

function formOf(user: User): ProfileForm {
  return {
    displayName: user.profile?.display_name ?? user.display_name ?? '',
    bio: user.profile?.bio ?? user.bio ?? '',
    interests: [...(user.interests ?? [])],
  };
}

const sameSubjects = (a: Subject[], b: Subject[]) =>
  a.length === b.length && a.every((subject) => b.includes(subject));

/** The body to save, or why there is nothing to save (both trimmed fields empty, or nothing changed). */
export function profileUpdate(
  form: ProfileForm,
  saved: ProfileForm,
): { ok: true; value: UpdateProfileRequest } | { ok: false; error: string } {
  const checked = validateProfile(form);
  if (!checked.ok) return checked;
  const interestsChanged = !sameSubjects(form.interests, saved.interests);
  const unchanged =
    checked.value.display_name === saved.displayName.trim() &&
    checked.value.bio === saved.bio.trim() &&
    !interestsChanged;
  if (unchanged) return { ok: false, error: VALIDATION_MESSAGES.noProfileChanges };
  return { ok: true, value: { ...checked.value, interests: form.interests } };
}

/**
 * The Profile section (spec section 2, "Settings"): display name, bio and interests saved together;
 * the avatar uploads on its own as soon as an image under 5 MB is picked.
 */
export const profileMachine = setup({
  types: {
    context: {} as ProfileContext,
    events: {} as ProfileEvent,
    input: {} as { user: User },
    emitted: {} as SettingsNotice,
    tags: {} as 'busy' | 'uploading',
  },
  actors: {
    updateProfile: stubActor<UserResponse, UpdateProfileRequest>('updateProfile', HOW),
    uploadAvatar: stubActor<UserResponse, Blob>('uploadAvatar', HOW),
  },
  actions: {
    adopt: assign((_, user: User) => ({
      saved: formOf(user),
      form: formOf(user),
      avatarUrl: user.profile?.avatar_url ?? null,
      savedAvatarUrl: user.profile?.avatar_url ?? null,
    })),
    announce: emit((_, user: User) => ({ type: 'user.updated' as const, user })),
  },
}).createMachine({
  id: 'profile',
  type: 'parallel',
  context: ({ input }) => ({
    form: formOf(input.user),
    saved: formOf(input.user),
    avatarUrl: input.user.profile?.avatar_url ?? null,
    savedAvatarUrl: input.user.profile?.avatar_url ?? null,
    avatarError: null,
    error: null,
  }),
  states: {
    form: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'profile.edit': {
              actions: assign({
                form: ({ context, event }) => ({ ...context.form, [event.field]: event.value }),
                error: null,
              }),
            },
            'interest.toggle': {
              actions: assign({
                form: ({ context, event }) => ({
                  ...context.form,
                  interests: context.form.interests.includes(event.subject)
                    ? context.form.interests.filter((s) => s !== event.subject)
                    : [...context.form.interests, event.subject],
                }),
                error: null,
              }),
            },
            'profile.save': [
              {
                guard: ({ context }) => !profileUpdate(context.form, context.saved).ok,
                actions: [
                  assign({
                    error: ({ context }) => {
                      const result = profileUpdate(context.form, context.saved);
                      return result.ok ? null : result.error;
                    },
                  }),
                  emit(({ context }) => {
                    const result = profileUpdate(context.form, context.saved);
                    return {
                      type: 'notify' as const,
                      tone: 'error' as const,
                      message: result.ok ? '' : result.error,
                    };
                  }),
                ],
              },
              { target: 'saving' },
            ],
            'user.sync': { actions: { type: 'adopt', params: ({ event }) => event.user } },
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            src: 'updateProfile',
            input: ({ context }) => {
              const result = profileUpdate(context.form, context.saved);
              return result.ok ? result.value : { display_name: '', bio: '' };
            },
            onDone: {
              target: 'editing',
              actions: [
                { type: 'adopt', params: ({ event }) => event.output.user },
                { type: 'announce', params: ({ event }) => event.output.user },
                emit({ type: 'notify', tone: 'success', message: SETTINGS_MESSAGES.profileSaved }),
              ],
            },
            onError: {
              target: 'editing',
              actions: [
                assign({ error: PROFILE_MESSAGES.updateFailed }),
                emit({ type: 'notify', tone: 'error', message: PROFILE_MESSAGES.updateFailed }),
              ],
            },
          },
        },
      },
    },
    avatar: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'avatar.pick': [
              {
                guard: ({ event }) => validateAvatar(event.file) !== null,
                actions: [
                  assign({ avatarError: ({ event }) => validateAvatar(event.file) }),
                  emit(({ event }) => ({
                    type: 'notify' as const,
                    tone: 'error' as const,
                    message: validateAvatar(event.file) ?? '',
                  })),
                ],
              },
              {
                target: 'uploading',
                actions: assign({
                  avatarError: null,
                  avatarUrl: ({ context, event }) => event.preview ?? context.avatarUrl,
                }),
              },
            ],
          },
        },
        uploading: {
          tags: ['uploading'],
          invoke: {
            src: 'uploadAvatar',
            input: ({ event }) => (event.type === 'avatar.pick' ? event.file : new Blob()),
            onDone: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({
                  avatarUrl: event.output.user.profile?.avatar_url ?? null,
                  savedAvatarUrl: event.output.user.profile?.avatar_url ?? null,
                })),
                { type: 'announce', params: ({ event }) => event.output.user },
                emit({
                  type: 'notify',
                  tone: 'success',
                  message: SETTINGS_MESSAGES.avatarUploaded,
                }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                assign({
                  avatarError: PROFILE_MESSAGES.avatarUploadFailed,
                  avatarUrl: ({ context }) => context.savedAvatarUrl,
                }),
                emit({
                  type: 'notify',
                  tone: 'error',
                  message: PROFILE_MESSAGES.avatarUploadFailed,
                }),
              ],
            },
          },
        },
      },
    },
  },
});

/** The Profile section's machine over `adapter`. */
export function profileLogic(adapter: SettingsAdapter) {
  return profileMachine.provide({
    actors: {
      updateProfile: fromPromise(({ input, signal }) => adapter.updateProfile(input, { signal })),
      uploadAvatar: fromPromise(({ input, signal }) => adapter.uploadAvatar(input, { signal })),
    },
  });
}
