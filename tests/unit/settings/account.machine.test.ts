import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';

import {
  apiError,
  deferred,
  emailUser,
  fakeSettingsAdapter,
  googleUser,
  sampleExport,
  walletUser,
} from '../../../fakes/settings';
import { accountLogic, accountMachine } from '../../../src/settings/account.machine';
import { deletionConfirmation } from '../../../src/settings/AccountSection';
import type { AccountExport } from '../../../src/settings/settings.adapter';
import type { MessageResponse } from '../../../src/wire';

function start(adapter = fakeSettingsAdapter()) {
  const actor = createActor(accountLogic(adapter));
  const emitted: string[] = [];
  let exported: AccountExport | null = null;
  actor.on('*', (e) => {
    if (e.type === 'notify') emitted.push(`${e.tone}: ${e.message}`);
    else emitted.push(e.type);
    if (e.type === 'export.ready') exported = e.data;
  });
  actor.start();
  return { actor, adapter, emitted, exported: () => exported };
}

describe('deletionConfirmation', () => {
  it('asks an email account for its email and password, Google for its name, a wallet for a signature', () => {
    expect(deletionConfirmation(emailUser)).toEqual({
      kind: 'type',
      expected: 'ada@example.org',
      label: 'Type your email (ada@example.org) to confirm',
      password: true,
    });
    expect(deletionConfirmation(googleUser).password).toBeUndefined();
    expect(deletionConfirmation(googleUser)).toMatchObject({ kind: 'type', expected: 'Gus' });
    expect(deletionConfirmation(walletUser)).toMatchObject({
      kind: 'sign',
      expected: walletUser.wallet_address,
    });
  });
});

describe('account machine', () => {
  it('fails loudly without an adapter', async () => {
    const actor = createActor(accountMachine).start();
    actor.send({ type: 'delete.start' });
    actor.send({ type: 'delete.confirm', body: { confirm: 'x' } });
    await waitFor(actor, (s) => s.matches('confirmingDelete'));
    expect(actor.getSnapshot().context.error).toBe(
      'Could not delete your account. Please try again.',
    );
  });

  it('exports: idle → exporting (busy) → idle, the data handed over and a toast', async () => {
    const answer = deferred<AccountExport>();
    const { actor, emitted, exported } = start(
      fakeSettingsAdapter({ exportData: () => answer.promise }),
    );
    actor.send({ type: 'export.start' });
    expect(actor.getSnapshot().value).toBe('exporting');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    answer.resolve(sampleExport);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(exported()).toEqual(sampleExport);
    expect(emitted).toEqual(['export.ready', 'success: Your data was downloaded.']);
  });

  it('a failed export says so and stays', async () => {
    const { actor, emitted } = start(
      fakeSettingsAdapter({ exportData: () => Promise.reject(apiError(500)) }),
    );
    actor.send({ type: 'export.start' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(emitted).toEqual(['error: Could not export your data. Please try again.']);
  });

  it('deletes only after the confirmation; cancel goes back', async () => {
    const answer = deferred<MessageResponse>();
    const { actor, adapter, emitted } = start(
      fakeSettingsAdapter({ deleteAccount: () => answer.promise }),
    );
    actor.send({ type: 'delete.start' });
    expect(actor.getSnapshot().value).toBe('confirmingDelete');
    actor.send({ type: 'delete.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(adapter.calls).toEqual([]);
    actor.send({ type: 'delete.start' });
    actor.send({ type: 'delete.confirm', body: { confirm: 'ada@example.org' } });
    expect(actor.getSnapshot().value).toBe('deleting');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(adapter.calls).toEqual([
      { method: 'deleteAccount', args: [{ confirm: 'ada@example.org' }] },
    ]);
    answer.resolve({ message: 'ok' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('deleted');
    expect(emitted).toEqual(['success: Your account was deleted.', 'account.deleted']);
  });

  it("a refused deletion keeps the confirmation open with the server's words", async () => {
    const { actor, emitted } = start(
      fakeSettingsAdapter({
        deleteAccount: () => Promise.reject(apiError(400, 'The confirmation does not match')),
      }),
    );
    actor.send({ type: 'delete.start' });
    actor.send({ type: 'delete.confirm', body: { confirm: 'wrong' } });
    await waitFor(actor, (s) => s.matches('confirmingDelete') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('The confirmation does not match');
    expect(emitted).toEqual([]);
    // Starting again clears the error.
    actor.send({ type: 'delete.cancel' });
    actor.send({ type: 'delete.start' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
