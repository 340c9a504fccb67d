import { useActorRef, useSelector } from '@xstate/react';
import { useId, useState } from 'react';

import { FIRST_RUN_MESSAGES } from '../../lib/messages';
import { Button } from '../../ui/button';
import { AyahLogo } from '../../ui/logo';
import type { Theme } from '../../ui/root';
import type { AuthAdapter } from '../auth.adapter';
import type { AuthMode } from '../auth.types';
import type { SignInFields } from '../auth.types';
import { GoogleIcon, MailIcon } from '../auth-icons';
import { AuthLayout, headingClass, useFocusOnChange } from '../AuthLayout';
import { Tagline } from '../tagline/Tagline';
import { useAuthNotices } from '../use-auth-notices';
import type { WalletSource } from '../wallet-sign-in/wallet-provider';
import { walletAuthLogic } from '../wallet-sign-in/wallet-sign-in.machine';
import { WalletSignIn } from '../wallet-sign-in/WalletSignIn';
import { EmailForm } from './EmailForm';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { signInLogic } from './sign-in.machine';
import { isGoogleBusy, signInView } from './sign-in.selectors';
import { useProviders } from './use-providers';

/** The sign-in screen's tagline (spec section 1: "an AI learning coach"). */
export const AUTH_TAGLINE = 'Your AI learning coach';

export type AuthScreenProps = {
  /** The auth backend: `createHttpApi(...).auth`, or a fake. */
  adapter: AuthAdapter;
  /**
   * Hands a fresh access token and its refresh token to the session (`useAuth().signIn`); a
   * returned promise is awaited
   * before the screen reports success, and its rejection is shown as the error.
   * @default nothing: the token is dropped
   */
  onSignedIn?: ((token: string, refreshToken?: string | null) => unknown) | undefined;
  /** The host's router: '/verify-email?email=…' after a sign-up. */
  onNavigate?: ((path: string) => void) | undefined;
  /** Leaves the page for Google sign-in. @default location.assign */
  redirect?: ((url: string) => void) | undefined;
  /** The wallet for MetaMask sign-in; `null` for none. @default window.ethereum */
  ethereum?: WalletSource | undefined;
  /** Open straight on the email form in this mode (/login, /register). @default the three choices */
  mode?: AuthMode | undefined;
  /** @default 'Your AI learning coach' */
  tagline?: string | undefined;
  /** Show the tagline whole at once. @default the reader's `prefers-reduced-motion` */
  reducedMotion?: boolean | undefined;
  theme?: Theme | undefined;
  className?: string | undefined;
};

/**
 * Sign in or sign up (spec section 2, "Auth screen"): MetaMask, Google or email, with the email
 * form's sign-in / sign-up toggle and its forgot-password sub-view.
 */
export function AuthScreen({
  adapter,
  onSignedIn,
  onNavigate,
  redirect = (url) => window.location.assign(url),
  ethereum,
  mode,
  tagline = AUTH_TAGLINE,
  reducedMotion,
  theme,
  className,
}: AuthScreenProps) {
  // Fresh logic each render: useActorRef keeps one actor and adopts the latest implementations.
  const session = {
    signIn: (token: string, refreshToken?: string | null) => onSignedIn?.(token, refreshToken),
  };
  const actorRef = useActorRef(signInLogic(adapter, session), { input: { mode } });
  const walletRef = useActorRef(walletAuthLogic(adapter, { provider: ethereum, ...session }), {
    input: { registeredAddress: null },
  });
  useAuthNotices(actorRef, {
    onNavigate,
    redirect: (url) => {
      try {
        redirect(url);
      } catch {
        actorRef.send({ type: 'google.failed' });
      }
    },
  });
  useAuthNotices(walletRef, { onNavigate });

  const view = useSelector(actorRef, signInView);
  const googleBusy = useSelector(actorRef, isGoogleBusy);
  const headingRef = useFocusOnChange<HTMLHeadingElement>(view);
  const choicesId = useId();
  const googleReasonId = useId();
  const providers = useProviders(adapter);
  const [fields, setFields] = useState<SignInFields>({ name: '', email: '', password: '' });

  return (
    <AuthLayout theme={theme} className={className}>
      <header className="ay:flex ay:flex-col ay:items-center ay:gap-1 ay:text-center">
        <AyahLogo className="ay:size-12" />
        <h1 className="ay:text-2xl ay:font-bold ay:tracking-tight">Ayah</h1>
        <Tagline text={tagline} reducedMotion={reducedMotion} />
      </header>

      {view === 'choices' && (
        <section aria-labelledby={choicesId} className="ay:flex ay:flex-col ay:gap-3">
          <h2 id={choicesId} ref={headingRef} tabIndex={-1} className={headingClass}>
            Welcome! How would you like to continue?
          </h2>
          {/* Email first and the wallet last: a child's first choice is the one they (and their
              parents) know; a crypto wallet is for the few who already have one. */}
          <Button onClick={() => actorRef.send({ type: 'choice.email' })}>
            <MailIcon />
            Continue with Email
          </Button>
          <Button
            variant="outline"
            loading={googleBusy}
            disabled={!providers.google}
            aria-describedby={providers.google ? undefined : googleReasonId}
            onClick={() => actorRef.send({ type: 'choice.google' })}
          >
            <GoogleIcon />
            Continue with Google
          </Button>
          {/* The reason's line is kept whether or not it is needed: which ways the server offers is
              known only after the screen shows, and a line pushed in then would move the card. */}
          <p
            id={googleReasonId}
            aria-hidden={providers.google || undefined}
            className="ay:-mt-1 ay:min-h-4 ay:text-center ay:text-xs ay:text-muted-foreground"
          >
            {!providers.google && FIRST_RUN_MESSAGES.googleUnavailable}
          </p>
          <WalletSignIn actorRef={walletRef} />
        </section>
      )}
      {view === 'email' && (
        <EmailForm
          actorRef={actorRef}
          fields={fields}
          onFieldsChange={setFields}
          headingRef={headingRef}
          onNavigate={onNavigate}
        />
      )}
      {view === 'forgotPassword' && (
        <ForgotPasswordForm
          actorRef={actorRef}
          email={fields.email}
          onEmailChange={(email) => setFields({ ...fields, email })}
          headingRef={headingRef}
        />
      )}
    </AuthLayout>
  );
}
