import { useActorRef, useSelector } from '@xstate/react';
import { useId, useState } from 'react';

import { AUTH_MESSAGES } from '../../lib/messages';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { PasswordInput } from '../../ui/password-input';
import { PasswordRequirements } from '../../ui/password-requirements';
import { PasswordStrength } from '../../ui/password-strength';
import type { Theme } from '../../ui/root';
import type { AuthAdapter } from '../auth.adapter';
import { AuthLayout, headingClass } from '../AuthLayout';
import { useAuthNotices } from '../use-auth-notices';
import { resetPasswordLogic } from './reset-password.machine';
import { isSaving } from './reset-password.selectors';

export type ResetPasswordProps = {
  adapter: AuthAdapter;
  /** The `token` query parameter of the emailed link. */
  token: string | null | undefined;
  /** The host's router: '/auth' after success and for '← Back to Sign In'. */
  onNavigate?: ((path: string) => void) | undefined;
  theme?: Theme | undefined;
  className?: string | undefined;
};

/** Set a new password from the emailed link (spec section 2, "Reset-password screen"). */
export function ResetPassword({
  adapter,
  token,
  onNavigate,
  theme,
  className,
}: ResetPasswordProps) {
  const actorRef = useActorRef(resetPasswordLogic(adapter), { input: { token } });
  useAuthNotices(actorRef, { onNavigate });
  const state = useSelector(actorRef, (snapshot) => snapshot);
  const [password, setPassword] = useState('');
  const headingId = useId();
  const requirementsId = useId();
  const busy = isSaving(state);

  return (
    <AuthLayout theme={theme} className={className}>
      <form
        noValidate
        aria-labelledby={headingId}
        className="ay:flex ay:flex-col ay:gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          actorRef.send({ type: 'reset.submit', password });
        }}
      >
        <h1 id={headingId} className={headingClass}>
          Set a new password
        </h1>
        {!state.context.token && (
          <p role="alert" className="ay:text-sm ay:font-medium ay:text-destructive">
            {AUTH_MESSAGES.resetLinkMissing}
          </p>
        )}
        <Field
          label="New password"
          error={
            state.context.error !== AUTH_MESSAGES.resetLinkMissing ? state.context.error : undefined
          }
        >
          <PasswordInput
            autoComplete="new-password"
            aria-describedby={requirementsId}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        <PasswordStrength password={password} />
        <PasswordRequirements id={requirementsId} password={password} />
        <Button type="submit" loading={busy}>
          {busy ? 'Resetting...' : 'Reset Password'}
        </Button>
        <Button variant="ghost" onClick={() => onNavigate?.('/auth')}>
          <span aria-hidden="true">←</span> Back to Sign In
        </Button>
      </form>
    </AuthLayout>
  );
}
