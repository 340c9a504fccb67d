import { assign, emit, fromPromise } from 'xstate';

import { PROFILE_MESSAGES, SETTINGS_MESSAGES } from '../lib/messages';
import { validateAvatar } from '../lib/validation';
import { formOf, profileSetup, profileUpdate } from './profile.setup';
import type { SettingsAdapter } from './settings.adapter';

/**
 * The Profile section (spec section 2, "Settings"): display name, bio and interests saved together;
 * the avatar uploads on its own as soon as an image under 5 MB is picked.
 */
export const profileMachine = profileSetup.createMachine({
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
