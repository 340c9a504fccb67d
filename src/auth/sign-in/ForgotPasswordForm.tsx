import { useSelector } from '@xstate/react';
import { type Ref, useId } from 'react';
import type { ActorRefFrom } from 'xstate';

import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { Input } from '../../ui/input';
import { headingClass } from '../AuthLayout';
import type { signInMachine } from './sign-in.machine';
import { isSubmitting, resetLinkSent } from './sign-in.selectors';

export type ForgotPasswordFormProps = {
  actorRef: ActorRefFrom<typeof signInMachine>;
  email: string;
  onEmailChange: (email: string) => void;
  headingRef: Ref<HTMLHeadingElement>;
};

/** The sign-in screen's forgot-password sub-view: one email field that sends a reset link. */
export function ForgotPasswordForm({
  actorRef,
  email,
  onEmailChange,
  headingRef,
}: ForgotPasswordFormProps) {
  const state = useSelector(actorRef, (snapshot) => snapshot);
  const headingId = useId();
  const sent = resetLinkSent(state);

  return (
    <form
      noValidate
      aria-labelledby={headingId}
      className="ay:flex ay:flex-col ay:gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        actorRef.send({ type: 'forgot.submit', email });
      }}
    >
      <h2 id={headingId} ref={headingRef} tabIndex={-1} className={headingClass}>
        Reset your password
      </h2>
      <p className="ay:text-sm ay:text-muted-foreground">
        Enter the email address of your account and we will send you a link to set a new password.
      </p>
      <Field label="Email" error={state.context.resetError ?? undefined}>
        <Input
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(event) => onEmailChange(event.target.value)}
        />
      </Field>
      <p role="status" className="ay:text-sm ay:text-success">
        {sent && 'Check your inbox for the link to reset your password.'}
      </p>
      <Button type="submit" loading={isSubmitting(state)}>
        {sent ? 'Send again' : 'Send reset link'}
      </Button>
      <Button variant="ghost" onClick={() => actorRef.send({ type: 'forgot.back' })}>
        <span aria-hidden="true">←</span> Back to sign in
      </Button>
    </form>
  );
}
