import { useSelector } from '@xstate/react';
import { type Ref, useEffect, useId, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';

import { FIRST_RUN_MESSAGES, SIGN_IN_MESSAGES } from '../../lib/messages';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { Input } from '../../ui/input';
import { PasswordInput } from '../../ui/password-input';
import { PasswordRequirements } from '../../ui/password-requirements';
import { PasswordStrength } from '../../ui/password-strength';
import type { SignInFields, SignUpField } from '../auth.types';
import { headingClass, NavLink } from '../AuthLayout';
import type { signInMachine } from './sign-in.machine';
import { isResending, isSubmitting } from './sign-in.selectors';

export type EmailFormProps = {
  actorRef: ActorRefFrom<typeof signInMachine>;
  fields: SignInFields;
  onFieldsChange: (fields: SignInFields) => void;
  headingRef: Ref<HTMLHeadingElement>;
  /** The host's router, for the Terms and Privacy links. @default ordinary links */
  onNavigate?: ((path: string) => void) | undefined;
};

/** The email form of the sign-in screen, in sign-in or sign-up mode. */
export function EmailForm({
  actorRef,
  fields,
  onFieldsChange,
  headingRef,
  onNavigate,
}: EmailFormProps) {
  const state = useSelector(actorRef, (snapshot) => snapshot);
  const headingId = useId();
  const requirementsId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const { mode, fieldErrors, unverifiedEmail, resendNote } = state.context;
  const signUp = mode === 'signUp';
  const errorFor = (field: SignUpField) => fieldErrors[field];
  // Every refused submit puts the reader on the first field in error.
  useEffect(() => {
    if (Object.keys(fieldErrors).length === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [fieldErrors]);
  const [before, terms, between, privacy, after] = FIRST_RUN_MESSAGES.consent;
  const change = (field: SignUpField) => (event: { target: { value: string } }) =>
    onFieldsChange({ ...fields, [field]: event.target.value });

  return (
    <form
      ref={formRef}
      noValidate
      aria-labelledby={headingId}
      className="ay:flex ay:flex-col ay:gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        actorRef.send({ type: 'form.submit', fields });
      }}
    >
      <h2 id={headingId} ref={headingRef} tabIndex={-1} className={headingClass}>
        {signUp ? 'Create your account' : 'Sign in'}
      </h2>
      {signUp && (
        <Field label="Full name" error={errorFor('name')}>
          <Input autoComplete="name" value={fields.name} onChange={change('name')} />
        </Field>
      )}
      <Field label="Email" error={errorFor('email')}>
        <Input
          type="email"
          autoComplete="email"
          inputMode="email"
          value={fields.email}
          onChange={change('email')}
        />
      </Field>
      <Field label="Password" error={errorFor('password')}>
        <PasswordInput
          autoComplete={signUp ? 'new-password' : 'current-password'}
          aria-describedby={signUp ? requirementsId : undefined}
          value={fields.password}
          onChange={change('password')}
        />
      </Field>
      {signUp ? (
        <div className="ay:flex ay:flex-col ay:gap-2">
          <PasswordStrength password={fields.password} />
          <PasswordRequirements id={requirementsId} password={fields.password} />
        </div>
      ) : (
        <Button
          variant="link"
          size="sm"
          className="ay:self-end ay:px-0"
          onClick={() => actorRef.send({ type: 'forgot.open' })}
        >
          Forgot password?
        </Button>
      )}
      {unverifiedEmail !== null && (
        <div
          role="alert"
          data-slot="unverified-notice"
          className="ay:flex ay:flex-col ay:gap-2 ay:rounded-md ay:border ay:border-border ay:bg-muted ay:p-3 ay:text-sm"
        >
          <p>{SIGN_IN_MESSAGES.notVerified}</p>
          <Button
            variant="outline"
            size="sm"
            className="ay:self-start"
            loading={isResending(state)}
            onClick={() => actorRef.send({ type: 'verify.resend' })}
          >
            Resend verification email
          </Button>
          {resendNote && <p className="ay:text-muted-foreground">{resendNote}</p>}
        </div>
      )}
      <Button type="submit" loading={isSubmitting(state)}>
        {signUp ? 'Create account' : 'Sign in'}
      </Button>
      {signUp && (
        <p data-slot="consent" className="ay:text-center ay:text-xs ay:text-muted-foreground">
          {before}
          <NavLink to="/terms" onNavigate={onNavigate}>
            {terms}
          </NavLink>
          {between}
          <NavLink to="/privacy" onNavigate={onNavigate}>
            {privacy}
          </NavLink>
          {after}
        </p>
      )}
      <p className="ay:flex ay:flex-wrap ay:items-center ay:justify-center ay:gap-1 ay:text-sm ay:text-muted-foreground">
        {signUp ? 'Already have an account?' : "Don't have an account?"}
        <Button
          variant="link"
          size="sm"
          className="ay:h-auto ay:px-0"
          onClick={() => actorRef.send({ type: 'mode.toggle' })}
        >
          {signUp ? 'Sign in' : 'Sign up'}
        </Button>
      </p>
      <Button variant="ghost" onClick={() => actorRef.send({ type: 'choice.back' })}>
        <span aria-hidden="true">←</span> Other ways to sign in
      </Button>
    </form>
  );
}
