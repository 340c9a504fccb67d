import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';

import { apiError, deferred, emailUser, fakeSettingsAdapter } from '../../../fakes/settings';
import { profileLogic, profileMachine } from '../../../src/settings/profile.machine';
import { profileUpdate } from '../../../src/settings/profile.setup';
import type { UserResponse } from '../../../src/settings/settings.adapter';
import { startRecording } from '../../support/recording';

function start(adapter = fakeSettingsAdapter(), user = emailUser) {
  const { actor, emitted: notices } = startRecording(profileLogic(adapter), { input: { user } });
  const toasts = () =>
    notices.flatMap((n) => (n.type === 'notify' ? [`${n.tone}: ${n.message}`] : []));
  return { actor, adapter, notices, toasts };
}

const image = (size = 1024, type = 'image/png') =>
  new File([new Uint8Array(Math.min(size, 16))], 'me.png', { type }) as File & { size: number };

/** A File that reports `size` bytes without holding them. */
function sized(size: number, type = 'image/png') {
  const file = image(16, type);
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('profileUpdate', () => {
  const saved = { displayName: 'Ada', bio: 'Hi', interests: [] };
  it("says 'No changes to save' when both trimmed fields are empty", () => {
    expect(profileUpdate({ displayName: '  ', bio: ' ', interests: [] }, saved)).toEqual({
      ok: false,
      error: 'No changes to save',
    });
  });
  it("says 'No changes to save' when nothing changed after trimming", () => {
    expect(profileUpdate({ displayName: ' Ada ', bio: 'Hi  ', interests: [] }, saved)).toEqual({
      ok: false,
      error: 'No changes to save',
    });
  });
  it('sends the trimmed fields, and the interests, when something changed', () => {
    expect(
      profileUpdate({ displayName: ' Ada L. ', bio: ' Hi ', interests: ['science'] }, saved),
    ).toEqual({ ok: true, value: { display_name: 'Ada L.', bio: 'Hi', interests: ['science'] } });
    expect(profileUpdate({ displayName: 'Ada', bio: 'Hi', interests: ['math'] }, saved).ok).toBe(
      true,
    );
  });
});

describe('profile machine', () => {
  it('starts from the user, editing, with the saved avatar', () => {
    const user = { ...emailUser, profile: { ...emailUser.profile, avatar_url: '/a.png' } };
    const { actor } = start(undefined, user);
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual({ form: 'editing', avatar: 'idle' });
    expect(snapshot.context.form).toEqual({
      displayName: 'Ada',
      bio: 'I like maths.',
      interests: ['math'],
    });
    expect(snapshot.context.avatarUrl).toBe('/a.png');
  });

  it('fails loudly without an adapter', async () => {
    const actor = createActor(profileMachine, { input: { user: emailUser } }).start();
    actor.send({ type: 'profile.edit', field: 'bio', value: 'new' });
    actor.send({ type: 'profile.save' });
    await waitFor(actor, (s) => s.matches({ form: 'editing' }) && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Failed to update profile. Please try again.');
  });

  it("refuses an unchanged or empty form with 'No changes to save', calling nothing", () => {
    const { actor, adapter, toasts } = start();
    actor.send({ type: 'profile.save' });
    expect(actor.getSnapshot().context.error).toBe('No changes to save');
    actor.send({ type: 'profile.edit', field: 'displayName', value: '   ' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'profile.edit', field: 'bio', value: '' });
    actor.send({ type: 'profile.save' });
    expect(actor.getSnapshot().context.error).toBe('No changes to save');
    expect(toasts()).toEqual(['error: No changes to save', 'error: No changes to save']);
    expect(adapter.calls).toEqual([]);
  });

  it('saves the trimmed fields: saving (busy) → editing, the fresher user announced', async () => {
    const answer = deferred<UserResponse>();
    const adapter = fakeSettingsAdapter({ updateProfile: () => answer.promise });
    const { actor, notices, toasts } = start(adapter);
    actor.send({ type: 'profile.edit', field: 'displayName', value: '  Ada L.  ' });
    actor.send({ type: 'interest.toggle', subject: 'science' });
    actor.send({ type: 'interest.toggle', subject: 'math' });
    actor.send({ type: 'profile.save' });
    expect(actor.getSnapshot().matches({ form: 'saving' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(adapter.calls).toEqual([
      {
        method: 'updateProfile',
        args: [{ display_name: 'Ada L.', bio: 'I like maths.', interests: ['science'] }],
      },
    ]);
    const next = { ...emailUser, display_name: 'Ada L.', interests: ['science' as const] };
    answer.resolve({ user: { ...next, profile: { ...next.profile, display_name: 'Ada L.' } } });
    await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    expect(actor.getSnapshot().context.saved.displayName).toBe('Ada L.');
    expect(notices.some((n) => n.type === 'user.updated')).toBe(true);
    expect(toasts()).toEqual(['success: Profile updated successfully!']);
    // Saved: the same form again is no change.
    actor.send({ type: 'profile.save' });
    expect(actor.getSnapshot().context.error).toBe('No changes to save');
  });

  it("keeps the edits after a failed save and says 'Failed to update profile. Please try again.'", async () => {
    const { actor, toasts } = start(
      fakeSettingsAdapter({ updateProfile: () => Promise.reject(apiError(500)) }),
    );
    actor.send({ type: 'profile.edit', field: 'bio', value: 'Still here' });
    actor.send({ type: 'profile.save' });
    await waitFor(actor, (s) => s.matches({ form: 'editing' }) && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Failed to update profile. Please try again.');
    expect(actor.getSnapshot().context.form.bio).toBe('Still here');
    expect(toasts()).toEqual(['error: Failed to update profile. Please try again.']);
  });

  it('adopts a user synced from the host', () => {
    const { actor } = start();
    actor.send({
      type: 'user.sync',
      user: {
        ...emailUser,
        display_name: 'Ada B.',
        profile: { ...emailUser.profile, display_name: 'Ada B.' },
      },
    });
    expect(actor.getSnapshot().context.form.displayName).toBe('Ada B.');
  });

  it("refuses a file that is not an image: 'Please select an image file'", () => {
    const { actor, adapter, toasts } = start();
    actor.send({ type: 'avatar.pick', file: sized(1000, 'application/pdf'), preview: null });
    expect(actor.getSnapshot().context.avatarError).toBe('Please select an image file');
    expect(actor.getSnapshot().matches({ avatar: 'idle' })).toBe(true);
    expect(toasts()).toEqual(['error: Please select an image file']);
    expect(adapter.calls).toEqual([]);
  });

  it("refuses an image of 5 MB or more: 'File size must be less than 5MB'", () => {
    const { actor, adapter } = start();
    actor.send({ type: 'avatar.pick', file: sized(5 * 1024 * 1024), preview: null });
    expect(actor.getSnapshot().context.avatarError).toBe('File size must be less than 5MB');
    expect(adapter.calls).toEqual([]);
    actor.send({ type: 'avatar.pick', file: sized(5 * 1024 * 1024 - 1), preview: 'blob:x' });
    expect(actor.getSnapshot().matches({ avatar: 'uploading' })).toBe(true);
  });

  it('uploads an image: the preview at once, then the server URL', async () => {
    const answer = deferred<UserResponse>();
    const { actor, toasts } = start(fakeSettingsAdapter({ uploadAvatar: () => answer.promise }));
    actor.send({ type: 'avatar.pick', file: image(), preview: 'blob:preview' });
    expect(actor.getSnapshot().hasTag('uploading')).toBe(true);
    expect(actor.getSnapshot().context.avatarUrl).toBe('blob:preview');
    answer.resolve({
      user: { ...emailUser, profile: { ...emailUser.profile, avatar_url: 'https://x/a.png' } },
    });
    await waitFor(actor, (s) => s.matches({ avatar: 'idle' }));
    expect(actor.getSnapshot().context.avatarUrl).toBe('https://x/a.png');
    expect(toasts()).toEqual(['success: Profile picture updated!']);
  });

  it("goes back to the saved picture after a failed upload: 'Failed to upload profile picture'", async () => {
    const { actor, toasts } = start(
      fakeSettingsAdapter({ uploadAvatar: () => Promise.reject(apiError(500)) }),
    );
    actor.send({ type: 'avatar.pick', file: image(), preview: 'blob:preview' });
    await waitFor(actor, (s) => s.matches({ avatar: 'idle' }));
    expect(actor.getSnapshot().context.avatarUrl).toBeNull();
    expect(actor.getSnapshot().context.avatarError).toBe('Failed to upload profile picture');
    expect(toasts()).toEqual(['error: Failed to upload profile picture']);
  });

  it('saves the form while an avatar uploads (two regions)', async () => {
    const upload = deferred<UserResponse>();
    const { actor } = start(fakeSettingsAdapter({ uploadAvatar: () => upload.promise }));
    actor.send({ type: 'avatar.pick', file: image(), preview: null });
    actor.send({ type: 'profile.edit', field: 'bio', value: 'New bio' });
    actor.send({ type: 'profile.save' });
    expect(actor.getSnapshot().value).toEqual({ form: 'saving', avatar: 'uploading' });
    await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    upload.resolve({ user: emailUser });
    await waitFor(actor, (s) => s.matches({ avatar: 'idle' }));
  });
});
