import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from 'ayah-coach';
import { guestWallet, Wallet, WalletDialog } from 'ayah-coach/wallet';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';

import { pending } from '../../fakes/chat';
import {
  apiError,
  fakeWalletAdapter,
  manyActivities,
  sampleBalance,
  transaction,
} from '../../fakes/wallet';
import { clearToasts } from '../support';

const meta = {
  title: 'Wallet/Wallet',
  component: Wallet,
  args: { adapter: fakeWalletAdapter() },
  beforeEach: clearToasts,
} satisfies Meta<typeof Wallet>;

export default meta;
type Story = StoryObj<typeof meta>;

const balances = async (canvasElement: HTMLElement) => {
  const canvas = within(canvasElement);
  await canvas.findByRole('heading', { name: 'Recent activity' });
  return canvas.getByText('Points balance').closest('dl') as HTMLElement;
};

/** Opens the conversion modal and types `amount`. */
async function convert(canvasElement: HTMLElement, amount: string) {
  await balances(canvasElement);
  await userEvent.click(within(canvasElement).getByRole('button', { name: 'Convert to AYAH' }));
  const dialog = await screen.findByRole('dialog', { name: 'Convert points to AYAH' });
  await userEvent.type(within(dialog).getByLabelText('Points to convert'), amount);
  return dialog;
}

/** The balances are on their way. */
export const Loading: Story = {
  args: { adapter: fakeWalletAdapter({ balance: (o) => pending(o) }) },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('Loading wallet…')).toBeInTheDocument();
    await expect(
      within(canvasElement).getByRole('button', { name: 'Convert to AYAH' }),
    ).toBeDisabled();
  },
};

/** Points and AYAH balances with recent activity: earned, converted, deducted. */
export const Balances: Story = {
  play: async ({ canvasElement }) => {
    const dl = await balances(canvasElement);
    await expect(dl).toHaveTextContent('1,250 points');
    await expect(dl).toHaveTextContent('125 AYAH');
    const list = within(canvasElement).getByRole('list', { name: 'Recent activity' });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    await expect(list).toHaveTextContent('20 AYAH received');
    await expect(list).toHaveTextContent('Goal target raised');
  },
};

/** Nothing earned yet. */
export const EmptyActivity: Story = {
  args: { adapter: fakeWalletAdapter({}, { balance: { points: 0, tokens: 0 }, activity: [] }) },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText(/No activity yet/)).toBeVisible();
    await expect(await balances(canvasElement)).toHaveTextContent('0 points');
  },
};

/** More than a page of activity: the second page. */
export const PagedActivity: Story = {
  args: { adapter: fakeWalletAdapter({}, { activity: manyActivities(14) }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('Activity 1');
    const pages = canvas.getByRole('navigation', { name: 'Activity pages' });
    await expect(within(pages).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await userEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    await expect(await canvas.findByText('Activity 11')).toBeVisible();
    await expect(within(pages).getByText('Page 2')).toBeVisible();
    await expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
  },
};

/** The wallet could not be read: a retry. */
export const LoadFailed: Story = {
  args: { adapter: fakeWalletAdapter({ balance: () => Promise.reject(apiError()) }) },
  play: async ({ canvasElement }) => {
    const alert = await within(canvasElement).findByRole('alert');
    await expect(alert).toHaveTextContent('Could not load your wallet. Please try again.');
    await expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled();
  },
};

/** 50 points: below the minimum of 100; the button is disabled and says why. */
export const ConversionBelowMinimum: Story = {
  play: async ({ canvasElement }) => {
    const dialog = await convert(canvasElement, '50');
    await expect(within(dialog).getByLabelText('Points to convert')).toHaveAccessibleDescription(
      'Convert at least 100 points',
    );
    await expect(within(dialog).getByRole('button', { name: 'Convert' })).toBeDisabled();
  },
};

/** 255 points: off the step of 10. */
export const ConversionOffStep: Story = {
  play: async ({ canvasElement }) => {
    const dialog = await convert(canvasElement, '255');
    await expect(within(dialog).getByLabelText('Points to convert')).toHaveAccessibleDescription(
      'Convert points in steps of 10',
    );
    await expect(within(dialog).getByRole('button', { name: 'Convert' })).toBeDisabled();
  },
};

/** 2000 points: more than the balance of 1250. */
export const ConversionAboveBalance: Story = {
  play: async ({ canvasElement }) => {
    const dialog = await convert(canvasElement, '2000');
    await expect(within(dialog).getByLabelText('Points to convert')).toHaveAccessibleDescription(
      'You have only 1250 points',
    );
    await expect(within(dialog).getByRole('button', { name: 'Convert' })).toBeDisabled();
  },
};

/** 250 points: valid, 25 AYAH to receive, the button enabled. */
export const ConversionValid: Story = {
  play: async ({ canvasElement }) => {
    const dialog = await convert(canvasElement, '250');
    await expect(within(dialog).getByTestId('tokens-to-receive')).toHaveTextContent('25 AYAH');
    await expect(within(dialog).getByRole('button', { name: 'Convert' })).toBeEnabled();
  },
};

/** The conversion is on its way: the modal cannot be closed. */
export const Converting: Story = {
  args: { adapter: fakeWalletAdapter({ convert: (_, o) => pending(o) }) },
  play: async ({ canvasElement }) => {
    const dialog = await convert(canvasElement, '200');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Convert' }));
    await expect(
      await within(dialog).findByRole('button', { name: 'Converting...' }),
    ).toBeDisabled();
    await expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
  },
};

/** The transaction settled as success: what was converted. */
export const Success: Story = {
  play: async ({ canvasElement }) => {
    const dialog = await convert(canvasElement, '300');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Convert' }));
    const result = await screen.findByRole('dialog', { name: 'Conversion complete' });
    await expect(within(result).getByRole('status')).toHaveTextContent(
      'You converted 300 points into 30 AYAH.',
    );
  },
};

/** The transaction failed: the points were given back, and it says so. */
export const Failed: Story = {
  args: {
    adapter: fakeWalletAdapter({
      convert: async () => ({ transaction: transaction('failed') }),
    }),
  },
  play: async ({ canvasElement }) => {
    const dialog = await convert(canvasElement, '200');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Convert' }));
    const result = await screen.findByRole('dialog', { name: 'Conversion failed' });
    await expect(within(result).getByRole('alert')).toHaveTextContent(
      'The conversion did not go through. Your points were not spent.',
    );
  },
};

/** The server refused the amount: its words, and the points kept. */
export const Refused: Story = {
  args: {
    adapter: fakeWalletAdapter({
      convert: () => Promise.reject(apiError(400, 'Not enough points')),
    }),
  },
  play: async ({ canvasElement }) => {
    const dialog = await convert(canvasElement, '200');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Convert' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Points to convert')).toHaveAccessibleDescription(
        /Your points were not spent\./,
      ),
    );
  },
};

/** A guest (id guest-user): 100 points in the browser, the two sample entries. */
export const Guest: Story = {
  args: {
    adapter: guestWallet(
      (() => {
        const items = new Map<string, string>();
        return { getItem: (k: string) => items.get(k) ?? null, setItem: items.set.bind(items) };
      })(),
    ),
  },
  play: async ({ canvasElement }) => {
    await expect(await balances(canvasElement)).toHaveTextContent('100 points');
    await expect(within(canvasElement).getByText('Welcome bonus')).toBeVisible();
    await expect(within(canvasElement).getByText('First meal')).toBeVisible();
  },
};

/** The sidebar's wallet modal: the same balances, and a link to the wallet page. */
export const Modal: Story = {
  render: (args) => (
    <WalletDialog adapter={args.adapter} trigger={<Button>Wallet</Button>} walletHref="/wallet" />
  ),
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Wallet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Wallet' });
    await waitFor(() => expect(dialog).toHaveTextContent('1,250 points'));
    await expect(dialog).toHaveTextContent(`${sampleBalance.tokens} AYAH`);
    await expect(within(dialog).getByRole('link', { name: 'Open wallet' })).toHaveAttribute(
      'href',
      '/wallet',
    );
  },
};
