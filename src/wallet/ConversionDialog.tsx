import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';

import { conversionSucceeded, WALLET_UI_MESSAGES as M } from '../lib/messages';
import { Button } from '../ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../ui/dialog';
import { Field } from '../ui/field';
import { Input } from '../ui/input';
import { type conversionMachine } from './conversion.machine';
import { isOpen, resultStatus } from './conversion.selectors';
import { amountError, tokensToReceive } from './conversion.setup';

export type ConversionActorRef = ActorRefFrom<typeof conversionMachine>;

/**
 * The conversion modal and its result screen: the amount (a whole number, at least 100, in steps of
 * 10, no more than the balance; the button disabled with the reason shown), the tokens it buys, then
 * the pending, success or failed result.
 */
export function ConversionDialog({ actor }: { actor: ConversionActorRef }) {
  const state = useSelector(actor, (snapshot) => snapshot);
  const { amount, balance, info, error, transaction } = state.context;
  const open = isOpen(state);
  const busy = state.hasTag('busy');
  const result = resultStatus(state);
  const reason = amount.trim() === '' ? null : amountError(amount, balance);
  const tokens = tokensToReceive(amount, info);
  const close = () => actor.send({ type: 'conversion.close' });

  return (
    <Dialog open={open} onOpenChange={(next) => !next && !busy && close()}>
      <DialogContent
        data-slot="conversion-dialog"
        showCloseButton={!busy}
        onEscapeKeyDown={(event) => busy && event.preventDefault()}
        onPointerDownOutside={(event) => event.preventDefault()}
      >
        {result ? (
          <ConversionResult
            status={result}
            text={
              result === 'success' && transaction
                ? conversionSucceeded(transaction.points, transaction.tokens, info.token_name)
                : undefined
            }
            onClose={close}
          />
        ) : (
          <form
            noValidate
            className="ay:flex ay:flex-col ay:gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              actor.send({ type: 'conversion.submit' });
            }}
          >
            <DialogHeader>
              <DialogTitle>Convert points to {info.token_name}</DialogTitle>
              <DialogDescription>
                {info.points_per_token} points = 1 {info.token_name}. Convert at least{' '}
                {info.min_points} points, in steps of {info.step}. You have {balance} points.
              </DialogDescription>
            </DialogHeader>
            <Field label="Points to convert" error={reason ?? error ?? undefined}>
              <Input
                type="number"
                inputMode="numeric"
                min={info.min_points}
                max={balance}
                step={info.step}
                value={amount}
                disabled={busy}
                onChange={(event) =>
                  actor.send({ type: 'amount.change', value: event.target.value })
                }
              />
            </Field>
            <p className="ay:text-sm" aria-live="polite">
              You will receive{' '}
              <strong data-testid="tokens-to-receive">
                {tokens} {info.token_name}
              </strong>
            </p>
            <DialogFooter>
              <Button type="button" variant="outline" disabled={busy} onClick={close}>
                Cancel
              </Button>
              <Button
                type="submit"
                loading={busy}
                disabled={!state.can({ type: 'conversion.submit' })}
              >
                {busy ? 'Converting...' : 'Convert'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

function ConversionResult({
  status,
  text,
  onClose,
}: {
  status: 'pending' | 'success' | 'failed';
  text: string | undefined;
  onClose: () => void;
}) {
  const title = { pending: M.pendingTitle, success: M.successTitle, failed: M.failedTitle }[status];
  const body = text ?? (status === 'failed' ? M.failedText : M.pendingText);
  return (
    <div data-status={status} className="ay:flex ay:flex-col ay:gap-4">
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription role={status === 'failed' ? 'alert' : 'status'}>
          {body}
        </DialogDescription>
      </DialogHeader>
      <DialogFooter>
        <Button onClick={onClose}>Done</Button>
      </DialogFooter>
    </div>
  );
}
