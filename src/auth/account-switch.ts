import type { User } from './auth.adapter';

/**
 * A sign-in link opened while another account is signed in (issue 22 #1): the Google callback and
 * the verify-email page never replace that session silently. They are told who is signed in, ask,
 * and act only on the student's choice.
 */

/** An account as the question shows it. */
export type Account = Pick<User, 'id' | 'email' | 'display_name'>;

/** Who is signed in now, sent whenever the session changes; `pending` while it still loads. */
export type SessionUpdateEvent = {
  type: 'session.update';
  current: Account | null;
  pending: boolean;
};

/** The student's answer: stay in the current account, or switch to the link's. */
export type AccountSwitchEvent = { type: 'switch.keep' } | { type: 'switch.confirm' };

/** True when someone is signed in and the link belongs to a different account. */
export function isOtherAccount(
  current: Account | null | undefined,
  incoming: Pick<User, 'id'> | null | undefined,
): boolean {
  return Boolean(current && incoming && current.id !== incoming.id);
}

/** The name an account goes by in the question: its display name, else its email. */
export function accountName(account: Pick<Account, 'email' | 'display_name'>): string {
  return account.display_name?.trim() || account.email;
}
