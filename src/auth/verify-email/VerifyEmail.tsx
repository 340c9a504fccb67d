import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';

import {
  ACCOUNT_SWITCH_MESSAGES,
  FIRST_RUN_MESSAGES,
  RESET_VERIFY_MESSAGES,
} from '../../lib/messages';
import { Button } from '../../ui/button';
import type { Theme } from '../../ui/root';
import { LoadingStatus } from '../../ui/skeleton';
import { Spinner } from '../../ui/spinner';
import { type Account, accountName } from '../account-switch';
import { AccountSwitch } from '../AccountSwitch';
import type { AuthAdapter } from '../auth.adapter';
import { AuthLayout, headingClass, NavLink } from '../AuthLayout';
import { useAuthNotices } from '../use-auth-notices';
import { verifyEmailLogic } from './verify-email.machine';
import {
  isAlreadyVerified,
  isCheckingLink,
  isKeeping,
  isSending,
  linkFailed,
  resendFailed,
  resendSucceeded,
  verifiedElsewhere,
} from './verify-email.selectors';

export type VerifyEmailProps = {
  adapter: AuthAdapter;
  /** The `email` query parameter: where the link was sent. */
  email?: string | null | undefined;
  /** The `token` query parameter of the emailed link: verifies it and signs in. */
  token?: string | null | undefined;
  /**
   * Who is signed in on this browser now (`useAuth().user`): a link of another account then
   * verifies without signing in, and offers to switch. @default nobody
   */
  currentUser?: Account | null | undefined;
  /** The session is still loading its user: a verified link waits for it. @default false */
  sessionPending?: boolean | undefined;
  /** Hands the token of a verified link to the session (`useAuth().signIn`). @default nothing */
  onSignedIn?: ((token: string, refreshToken?: string | null) => unknown) | undefined;
  /** The host's router: /register, /login, and where a verified link leads. */
  onNavigate?: ((path: string) => void) | undefined;
  /** Where the contact-support link points, e.g. 'mailto:help@school.example'. @default no link */
  supportHref?: string | undefined;
  theme?: Theme | undefined;
  className?: string | undefined;
};

/** The page after sign-up (spec section 2, "Verify-email screen"), and the emailed link's target. */
export function VerifyEmail({
  adapter,
  email,
  token,
  currentUser = null,
  sessionPending = false,
  onSignedIn,
  onNavigate,
  supportHref,
  theme,
  className,
}: VerifyEmailProps) {
  const actorRef = useActorRef(
    verifyEmailLogic(adapter, { signIn: (next, refresh) => onSignedIn?.(next, refresh) }),
    { input: { email, token, current: currentUser, sessionPending } },
  );
  useAuthNotices(actorRef, { onNavigate });
  useEffect(() => {
    actorRef.send({ type: 'session.update', current: currentUser, pending: sessionPending });
  }, [actorRef, currentUser, sessionPending]);
  const state = useSelector(actorRef, (snapshot) => snapshot);
  const address = state.context.email;
  const elsewhere = verifiedElsewhere(state);

  if (elsewhere) {
    return (
      <AuthLayout theme={theme} className={className}>
        <AccountSwitch
          current={elsewhere.current}
          incoming={elsewhere.verified}
          heading={ACCOUNT_SWITCH_MESSAGES.verifiedHeading}
          busy={isKeeping(state)}
          onKeep={() => actorRef.send({ type: 'switch.keep' })}
          onSwitch={() => actorRef.send({ type: 'switch.confirm' })}
        >
          <span role="status">
            {ACCOUNT_SWITCH_MESSAGES.verifiedElsewhere(
              elsewhere.verified.email,
              accountName(elsewhere.current),
            )}
          </span>
        </AccountSwitch>
      </AuthLayout>
    );
  }

  if (isAlreadyVerified(state)) {
    return (
      <AuthLayout theme={theme} className={className}>
        <h1 className={headingClass}>Email verified</h1>
        <p role="status" className="ay:text-sm">
          {FIRST_RUN_MESSAGES.alreadyVerified}
        </p>
        <Button onClick={() => onNavigate?.('/login')}>Sign in</Button>
      </AuthLayout>
    );
  }

  if (isCheckingLink(state)) {
    return (
      <AuthLayout theme={theme} className={className}>
        <h1 className={headingClass}>Verifying your email</h1>
        {linkFailed(state) ? (
          <p className="ay:text-sm ay:text-muted-foreground">
            This link could not be used.{' '}
            <NavLink to="/auth" onNavigate={onNavigate}>
              Go to sign in
            </NavLink>
          </p>
        ) : (
          <LoadingStatus showLabel label="Checking your verification link…">
            <Spinner className="ay:size-6 ay:text-primary" />
          </LoadingStatus>
        )}
      </AuthLayout>
    );
  }

  if (!address) {
    return (
      <AuthLayout theme={theme} className={className}>
        <h1 className={headingClass}>Invalid Page Access</h1>
        <p className="ay:text-sm ay:text-muted-foreground">
          This page requires an email address. Please return to the registration page.
        </p>
        <Button onClick={() => onNavigate?.('/register')}>Go to registration</Button>
      </AuthLayout>
    );
  }

  const busy = isSending(state);
  return (
    <AuthLayout theme={theme} className={className}>
      <h1 className={headingClass}>Check Your Email</h1>
      <p className="ay:text-sm">
        We sent a verification link to <strong className="ay:break-all">{address}</strong>.
      </p>
      <section aria-label="Next steps" className="ay:flex ay:flex-col ay:gap-2">
        <h2 className="ay:text-sm ay:font-semibold">Next steps</h2>
        <ol className="ay:flex ay:list-decimal ay:flex-col ay:gap-1 ay:pl-5 ay:text-sm ay:text-muted-foreground">
          <li>Check your inbox, and your spam folder too.</li>
          <li>Click the verification link in the email.</li>
          <li>Complete your onboarding.</li>
          <li>Start learning with Ayah, your AI tutor.</li>
        </ol>
      </section>
      <p role="status" className="ay:text-sm ay:font-medium ay:text-success">
        {resendSucceeded(state) &&
          (state.context.sentNote ?? RESET_VERIFY_MESSAGES.verificationResent)}
      </p>
      {resendFailed(state) && (
        <p role="alert" className="ay:text-sm ay:font-medium ay:text-destructive">
          {state.context.error}
        </p>
      )}
      <Button
        variant="outline"
        loading={busy}
        onClick={() => actorRef.send({ type: 'verify.resend' })}
      >
        {busy ? 'Sending...' : 'Resend verification email'}
      </Button>
      <div className="ay:flex ay:flex-wrap ay:items-center ay:justify-between ay:gap-2 ay:text-sm">
        <NavLink to="/login" onNavigate={onNavigate}>
          Back to Login
        </NavLink>
        {supportHref ? (
          <a
            href={supportHref}
            className="ay:text-muted-foreground ay:underline ay:underline-offset-4"
          >
            Need help? Contact support
          </a>
        ) : (
          <span className="ay:text-muted-foreground">
            Need help? Contact your school's support team.
          </span>
        )}
      </div>
    </AuthLayout>
  );
}
