import type { Meta, StoryObj } from '@storybook/react-vite';
import { useActorRef } from '@xstate/react';
import { ConversionDialog, conversionLogic, type WalletAdapter } from 'ayah-coach/wallet';
import { useEffect, useState } from 'react';
import { expect, screen, userEvent, within } from 'storybook/test';

import { fakeWalletAdapter, transaction } from '../../fakes/wallet';
import { clearToasts } from '../support';

/**
 * The conversion modal alone, its machine following the transaction with a short backoff, so that
 * a transaction that never settles reaches the pending result in a moment rather than in 24 s.
 */
function QuickConversion({ adapter, balance }: { adapter: WalletAdapter; balance: number }) {
  const [logic] = useState(() => conversionLogic(adapter).provide({ delays: { backoff: 10 } }));
  const actor = useActorRef(logic);
  useEffect(() => actor.send({ type: 'conversion.open', balance }), [actor, balance]);
  return <ConversionDialog actor={actor} />;
}

const meta = {
  title: 'Wallet/ConversionDialog',
  component: QuickConversion,
  args: { adapter: fakeWalletAdapter(), balance: 1250 },
  beforeEach: clearToasts,
} satisfies Meta<typeof QuickConversion>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The transaction is still pending after every look: the pending result, balance to follow. */
export const Pending: Story = {
  args: {
    adapter: fakeWalletAdapter({
      convert: async ({ points }) => ({ transaction: transaction('pending', points) }),
      transaction: async (id) => ({ transaction: transaction('pending', 200, id) }),
    }),
  },
  play: async () => {
    const dialog = await screen.findByRole('dialog', { name: 'Convert points to AYAH' });
    await userEvent.type(within(dialog).getByLabelText('Points to convert'), '200');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Convert' }));
    const result = await screen.findByRole('dialog', { name: 'Conversion pending' });
    await expect(within(result).getByRole('status')).toHaveTextContent(
      'Your conversion is still being processed. Your balance will update once it completes.',
    );
  },
};

/** Pending at first, then settled as success on a later look. */
export const FollowedToSuccess: Story = {
  args: {
    adapter: (() => {
      let looks = 0;
      return fakeWalletAdapter({
        convert: async ({ points }) => ({ transaction: transaction('pending', points) }),
        transaction: async (id) => ({
          transaction: transaction(++looks < 3 ? 'pending' : 'success', 500, id),
        }),
      });
    })(),
  },
  play: async () => {
    const dialog = await screen.findByRole('dialog', { name: 'Convert points to AYAH' });
    await userEvent.type(within(dialog).getByLabelText('Points to convert'), '500');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Convert' }));
    const result = await screen.findByRole('dialog', { name: 'Conversion complete' });
    await expect(result).toHaveTextContent('You converted 500 points into 50 AYAH.');
  },
};
