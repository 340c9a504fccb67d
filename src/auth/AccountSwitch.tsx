import { type ReactNode, useEffect, useId, useRef } from 'react';

import { ACCOUNT_SWITCH_MESSAGES as MESSAGES } from '../lib/messages';
import { Button } from '../ui/button';
import { type Account, accountName } from './account-switch';
import { headingClass } from './AuthLayout';

export type AccountSwitchProps = {
  /** The account signed in on this browser now. */
  current: Account;
  /** The account the link signs in to. */
  incoming: Account;
  /** Stays in `current` (the default, focused first). */
  onKeep: () => void;
  /** Signs in to `incoming`. */
  onSwitch: () => void;
  /** The choice is being carried out: both buttons wait. @default false */
  busy?: boolean | undefined;
  /** The page's heading. @default 'You are already signed in' */
  heading?: string | undefined;
  /** Says why the page asks. @default the question for a sign-in link */
  children?: ReactNode;
};

/**
 * The question a sign-in link asks when another account is signed in (issue 22 #1): both accounts
 * by name and email, stay (focused) or switch. Nothing changes until one is pressed.
 */
export function AccountSwitch({
  current,
  incoming,
  onKeep,
  onSwitch,
  busy = false,
  heading = MESSAGES.heading,
  children,
}: AccountSwitchProps) {
  const headingId = useId();
  const stay = useRef<HTMLButtonElement>(null);
  // The page exists to ask: the safe answer takes the focus, so Enter keeps the current session.
  useEffect(() => stay.current?.focus(), []);
  return (
    <section aria-labelledby={headingId} className="ay:flex ay:flex-col ay:gap-4">
      <h1 id={headingId} className={headingClass}>
        {heading}
      </h1>
      <p className="ay:text-sm">{children ?? MESSAGES.question}</p>
      <dl className="ay:grid ay:gap-3 ay:text-sm">
        <AccountRow label={MESSAGES.current} account={current} />
        <AccountRow label={MESSAGES.incoming} account={incoming} />
      </dl>
      <div className="ay:flex ay:flex-col ay:gap-2">
        <Button ref={stay} loading={busy} onClick={onKeep}>
          {MESSAGES.keep(accountName(current))}
        </Button>
        <Button variant="outline" disabled={busy} onClick={onSwitch}>
          {MESSAGES.switchTo(accountName(incoming))}
        </Button>
      </div>
    </section>
  );
}

function AccountRow({ label, account }: { label: string; account: Account }) {
  return (
    <div className="ay:rounded-md ay:border ay:border-border ay:p-3">
      <dt className="ay:text-xs ay:font-medium ay:text-muted-foreground">{label}</dt>
      <dd className="ay:font-medium">{account.display_name}</dd>
      <dd className="ay:break-all ay:text-muted-foreground">{account.email}</dd>
    </div>
  );
}
