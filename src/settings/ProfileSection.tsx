import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';

import { SUBJECT_LABELS } from '../lib/labels';
import { GOALS, type Subject } from '../lib/limits';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { Input } from '../ui/input';
import { Textarea } from '../ui/textarea';
import type { profileMachine } from './profile.machine';
import type { User } from './settings.adapter';

export type ProfileActorRef = ActorRefFrom<typeof profileMachine>;

/** Profile Information: avatar with upload and preview, display name, bio, interests, email (read only). */
export function ProfileSection({ actor, user }: { actor: ProfileActorRef; user: User }) {
  const state = useSelector(actor, (snapshot) => snapshot);
  const { form, avatarUrl, avatarError, error } = state.context;
  const fileRef = useRef<HTMLInputElement>(null);
  const interestsId = useId();
  const avatarErrorId = useId();
  const uploading = state.hasTag('uploading');
  const previews = useRef<string[]>([]);
  useEffect(() => () => previews.current.forEach((url) => URL.revokeObjectURL(url)), []);
  const name = form.displayName || user.email || 'Student';

  return (
    <div className="ay:flex ay:flex-col ay:gap-4">
      <h2 className="ay:text-base ay:font-semibold">Profile Information</h2>
      <div className="ay:flex ay:items-center ay:gap-4">
        {avatarUrl ? (
          <img
            src={avatarUrl}
            alt="Your avatar"
            className="ay:size-16 ay:rounded-full ay:object-cover"
          />
        ) : (
          <span
            aria-hidden="true"
            className="ay:flex ay:size-16 ay:items-center ay:justify-center ay:rounded-full ay:bg-secondary ay:text-xl ay:font-semibold ay:text-secondary-foreground"
          >
            {name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div className="ay:flex ay:flex-col ay:gap-1">
          <input
            ref={fileRef}
            type="file"
            accept="image/*"
            aria-label="Profile picture file"
            className="ay:sr-only"
            tabIndex={-1}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (!file) return;
              const preview =
                file.type.startsWith('image/') && typeof URL.createObjectURL === 'function'
                  ? URL.createObjectURL(file)
                  : null;
              if (preview) previews.current.push(preview);
              actor.send({ type: 'avatar.pick', file, preview });
            }}
          />
          <Button
            type="button"
            variant="outline"
            size="sm"
            loading={uploading}
            aria-describedby={avatarError ? avatarErrorId : undefined}
            onClick={() => fileRef.current?.click()}
          >
            {uploading ? 'Uploading...' : 'Upload photo'}
          </Button>
          {avatarError && (
            <p id={avatarErrorId} role="alert" className="ay:text-xs ay:text-destructive">
              {avatarError}
            </p>
          )}
        </div>
      </div>
      <Field label="Display name">
        <Input
          autoComplete="name"
          value={form.displayName}
          onChange={(event) =>
            actor.send({ type: 'profile.edit', field: 'displayName', value: event.target.value })
          }
        />
      </Field>
      <Field label="Bio" error={error ?? undefined}>
        <Textarea
          rows={3}
          value={form.bio}
          onChange={(event) =>
            actor.send({ type: 'profile.edit', field: 'bio', value: event.target.value })
          }
        />
      </Field>
      <div role="group" aria-labelledby={interestsId} className="ay:flex ay:flex-col ay:gap-2">
        <span id={interestsId} className="ay:text-sm ay:font-medium">
          Interests
        </span>
        <div className="ay:flex ay:flex-wrap ay:gap-2">
          {(GOALS.subjects as readonly Subject[]).map((subject) => {
            const on = form.interests.includes(subject);
            return (
              <Button
                key={subject}
                type="button"
                size="sm"
                variant={on ? 'default' : 'outline'}
                aria-pressed={on}
                onClick={() => actor.send({ type: 'interest.toggle', subject })}
              >
                {SUBJECT_LABELS[subject]}
              </Button>
            );
          })}
        </div>
      </div>
      <Field label="Email" description="Your email cannot be changed.">
        <Input type="email" value={user.email} readOnly />
      </Field>
    </div>
  );
}
