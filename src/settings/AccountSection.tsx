import { useSelector } from '@xstate/react';
import { useEffect, useId, useState } from 'react';
import type { ActorRefFrom } from 'xstate';

import { SETTINGS_MESSAGES } from '../lib/messages';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Field } from '../ui/field';
import { Input } from '../ui/input';
import type { accountMachine } from './account.machine';
import { isDeleteOpen, isDeleting, isExporting } from './account.selectors';
import type { User } from './settings.adapter';
import type { AccountExport } from './settings.adapter';

export type AccountActorRef = ActorRefFrom<typeof accountMachine>;

/** Signs a fresh server nonce with the account's wallet, for deleting a wallet account. */
export type DeletionSigner = (address: string) => Promise<{ message: string; signature: string }>;

/**
 * What confirms the deletion of `user`'s account: the email for email accounts, the display name for
 * Google accounts (within 10 minutes of a fresh Google sign-in, which the server checks), a wallet
 * signature for wallet ones.
 */
export function deletionConfirmation(user: User): {
  kind: 'type' | 'sign';
  expected: string;
  label: string;
  description?: string;
  /** Email accounts: the password too (the access token alone must not delete an account). */
  password?: boolean;
} {
  if (user.wallet_address && !user.email)
    return {
      kind: 'sign',
      expected: user.wallet_address,
      label: 'Sign with your wallet to confirm',
    };
  if (user.is_google)
    return {
      kind: 'type',
      expected: user.display_name,
      label: `Type your display name (${user.display_name}) to confirm`,
      description: 'A Google account can be deleted within 10 minutes of signing in with Google.',
    };
  // A school portal's student has no email of Ayah's: the display name confirms.
  if (!user.email)
    return {
      kind: 'type',
      expected: user.display_name,
      label: `Type your display name (${user.display_name}) to confirm`,
    };
  return {
    kind: 'type',
    expected: user.email,
    label: `Type your email (${user.email}) to confirm`,
    password: true,
  };
}

function download(data: AccountExport) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  if (typeof URL.createObjectURL !== 'function') return;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `ayah-data-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** "Export my data" and "Delete my account" (beyond the spec, because these are children's accounts). */
export function AccountSection({
  actor,
  user,
  signDeletion,
}: {
  actor: AccountActorRef;
  user: User;
  signDeletion?: DeletionSigner | undefined;
}) {
  const state = useSelector(actor, (snapshot) => snapshot);
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const [mismatch, setMismatch] = useState<string | null>(null);
  const headingId = useId();
  const confirmation = deletionConfirmation(user);
  const busy = state.hasTag('busy');
  useEffect(() => {
    const subscription = actor.on('export.ready', ({ data }) => download(data));
    return () => subscription.unsubscribe();
  }, [actor]);

  async function confirm() {
    if (confirmation.kind === 'type') {
      if (typed.trim().toLowerCase() !== confirmation.expected.trim().toLowerCase())
        return setMismatch(SETTINGS_MESSAGES.confirmMismatch);
      return actor.send({
        type: 'delete.confirm',
        body: confirmation.password
          ? { confirm: typed.trim(), password }
          : { confirm: typed.trim() },
      });
    }
    if (!signDeletion) return setMismatch(SETTINGS_MESSAGES.deleteAccountFailed);
    try {
      const signed = await signDeletion(confirmation.expected);
      actor.send({ type: 'delete.confirm', body: { confirm: confirmation.expected, ...signed } });
    } catch (error) {
      setMismatch(error instanceof Error ? error.message : SETTINGS_MESSAGES.deleteAccountFailed);
    }
  }

  return (
    <section aria-labelledby={headingId} className="ay:flex ay:flex-col ay:gap-3">
      <h2 id={headingId} className="ay:text-base ay:font-semibold">
        Your account
      </h2>
      <div className="ay:flex ay:flex-wrap ay:gap-2">
        <Button
          variant="outline"
          loading={isExporting(state)}
          disabled={busy}
          onClick={() => actor.send({ type: 'export.start' })}
        >
          Export my data
        </Button>
        <Button
          variant="destructive"
          disabled={busy}
          onClick={() => {
            setTyped('');
            setPassword('');
            setMismatch(null);
            actor.send({ type: 'delete.start' });
          }}
        >
          Delete my account
        </Button>
      </div>
      <ConfirmDialog
        open={isDeleteOpen(state)}
        title="Delete your account?"
        description="Your profile, chats, goals, points and everything Ayah remembers will be deleted for good, and you will be signed out everywhere."
        confirmLabel="Delete my account"
        variant="destructive"
        busy={isDeleting(state)}
        onConfirm={() => void confirm()}
        onCancel={() => actor.send({ type: 'delete.cancel' })}
      >
        {confirmation.kind === 'type' && confirmation.password && (
          <Field label="Your password">
            <Input
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </Field>
        )}
        {confirmation.kind === 'type' ? (
          <Field
            label={confirmation.label}
            description={confirmation.description}
            error={mismatch ?? state.context.error ?? undefined}
          >
            <Input
              autoComplete="off"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
          </Field>
        ) : (
          <>
            <p className="ay:text-sm">{confirmation.label}.</p>
            {(mismatch ?? state.context.error) && (
              <p role="alert" className="ay:text-sm ay:text-destructive">
                {mismatch ?? state.context.error}
              </p>
            )}
          </>
        )}
      </ConfirmDialog>
    </section>
  );
}
