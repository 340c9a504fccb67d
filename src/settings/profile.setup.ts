import { assign, emit, setup } from 'xstate';

import type { Subject } from '../lib/limits';
import { VALIDATION_MESSAGES } from '../lib/messages';
import { stubActor } from '../lib/stub-actor';
import { validateProfile } from '../lib/validation';
import type { User, UserResponse } from './settings.adapter';
import type { UpdateProfileRequest } from './settings.adapter';
import type { SettingsNotice } from './settings.notices';
import type { ProfileContext, ProfileEvent, ProfileForm } from './settings.types';

const HOW = 'create the machine with profileLogic(adapter)';

export function formOf(user: User): ProfileForm {
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

/** Types, actors (stubs until they are provided), guards and actions of `profileMachine`. */
export const profileSetup = setup({
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
});
