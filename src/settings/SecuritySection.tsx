import { useSelector } from '@xstate/react';
import { useEffect, useId, useState } from 'react';
import type { ActorRefFrom } from 'xstate';

import { SETTINGS_MESSAGES } from '../lib/messages';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { PasswordInput } from '../ui/password-input';
import { PasswordRequirements } from '../ui/password-requirements';
import { PasswordStrength } from '../ui/password-strength';
import type { passwordMachine } from './password.machine';
import type { User } from './settings.adapter';

export type PasswordActorRef = ActorRefFrom<typeof passwordMachine>;

/** Why this account has no password to change, or null (spec section 6: Google and wallet users). */
export function noPasswordReason(user: User): string | null {
  if (user.is_google) return SETTINGS_MESSAGES.googleNotice;
  if (user.wallet_address && !user.email) return SETTINGS_MESSAGES.walletNotice;
  return null;
}

const EMPTY = { current: '', next: '', confirm: '' };

/** Security: change password, or the notice that says why this account cannot. */
export function SecuritySection({ actor, user }: { actor: PasswordActorRef; user: User }) {
  const state = useSelector(actor, (snapshot) => snapshot);
  const [fields, setFields] = useState(EMPTY);
  const requirementsId = useId();
  const matchId = useId();
  const busy = state.hasTag('busy');
  useEffect(() => {
    const subscription = actor.on('password.changed', () => setFields(EMPTY));
    return () => subscription.unsubscribe();
  }, [actor]);

  const reason = noPasswordReason(user);
  if (reason) {
    return (
      <div className="ay:flex ay:flex-col ay:gap-2">
        <h2 className="ay:text-base ay:font-semibold">Change password</h2>
        <p
          role="note"
          className="ay:rounded-md ay:border ay:border-border ay:bg-muted ay:p-3 ay:text-sm"
        >
          {reason}
        </p>
      </div>
    );
  }

  const set = (key: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setFields((previous) => ({ ...previous, [key]: event.target.value }));
  const matches = fields.confirm !== '' && fields.next === fields.confirm;

  return (
    <form
      noValidate
      className="ay:flex ay:flex-col ay:gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'password.submit', ...fields });
      }}
    >
      <h2 className="ay:text-base ay:font-semibold">Change password</h2>
      {state.context.error && (
        <p role="alert" className="ay:text-sm ay:font-medium ay:text-destructive">
          {state.context.error}
        </p>
      )}
      <Field label="Current password">
        <PasswordInput
          autoComplete="current-password"
          value={fields.current}
          onChange={set('current')}
        />
      </Field>
      <Field label="New password">
        <PasswordInput
          autoComplete="new-password"
          aria-describedby={requirementsId}
          value={fields.next}
          onChange={set('next')}
        />
      </Field>
      <PasswordStrength password={fields.next} />
      <PasswordRequirements id={requirementsId} password={fields.next} />
      <Field label="Confirm new password">
        <PasswordInput
          autoComplete="new-password"
          aria-describedby={fields.confirm ? matchId : undefined}
          value={fields.confirm}
          onChange={set('confirm')}
        />
      </Field>
      {fields.confirm !== '' && (
        <p
          id={matchId}
          aria-live="polite"
          className={matches ? 'ay:text-sm ay:text-success' : 'ay:text-sm ay:text-destructive'}
        >
          {matches ? 'Passwords match' : 'Passwords do not match'}
        </p>
      )}
      <Button type="submit" loading={busy} className="ay:self-start">
        {busy ? 'Changing...' : 'Change Password'}
      </Button>
    </form>
  );
}
