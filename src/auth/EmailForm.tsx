import { useId, type Ref } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { Input } from '../ui/input';
import { PasswordInput } from '../ui/password-input';
import { PasswordRequirements } from '../ui/password-requirements';
import { PasswordStrength } from '../ui/password-strength';
import { headingClass } from './AuthLayout';
import type { SignInFields, SignUpField, signInMachine } from './sign-in.machine';

export type EmailFormProps = {
  actorRef: ActorRefFrom<typeof signInMachine>;
  fields: SignInFields;
  onFieldsChange: (fields: SignInFields) => void;
  headingRef: Ref<HTMLHeadingElement>;
};

/** The email form of the sign-in screen, in sign-in or sign-up mode. */
export function EmailForm({ actorRef, fields, onFieldsChange, headingRef }: EmailFormProps) {
  const state = useSelector(actorRef, (snapshot) => snapshot);
  const headingId = useId();
  const requirementsId = useId();
  const { mode, fieldError } = state.context;
  const signUp = mode === 'signUp';
  const errorFor = (field: SignUpField) =>
    fieldError?.field === field ? fieldError.message : undefined;
  const change = (field: SignUpField) => (event: { target: { value: string } }) =>
    onFieldsChange({ ...fields, [field]: event.target.value });

  return (
    <form
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
      <Button type="submit" loading={state.hasTag('busy')}>
        {signUp ? 'Create account' : 'Sign in'}
      </Button>
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
