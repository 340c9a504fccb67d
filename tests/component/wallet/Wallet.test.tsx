import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { fakeWalletAdapter, manyActivities, transaction } from '../../../fakes/wallet';
import { refreshWallets } from '../../../src/lib/wallet-events';
import { Button } from '../../../src/ui/button';
import { guestWallet } from '../../../src/wallet/guest-wallet';
import { Wallet } from '../../../src/wallet/Wallet';
import { WalletDialog } from '../../../src/wallet/WalletDialog';
import { clearToasts, renderWithToasts } from '../render';

afterEach(() => clearToasts());

async function balances() {
  await screen.findByRole('heading', { name: 'Recent activity' });
  const list = screen.getByText('Points balance');
  return list.closest('dl') as HTMLElement;
}

describe('<Wallet>', () => {
  it('shows both balances and the recent activity', async () => {
    renderWithToasts(<Wallet adapter={fakeWalletAdapter()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Wallet' })).toBeInTheDocument();
    const dl = await balances();
    expect(dl).toHaveTextContent('1,250 points');
    expect(dl).toHaveTextContent('125 AYAH');
    const list = screen.getByRole('list', { name: 'Recent activity' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    expect(list).toHaveTextContent('Converted to AYAH');
    expect(list).toHaveTextContent('20 AYAH received');
  });

  // Under a host's own "Wallet" heading (the app's phone header), no second one; the rest stays.
  it('titles itself only when given a heading level', async () => {
    renderWithToasts(<Wallet adapter={fakeWalletAdapter()} headingLevel={null} />);
    await balances();
    expect(screen.queryByRole('heading', { name: 'Wallet' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Convert to AYAH' })).toBeEnabled();
  });

  // Issue 25 item 5: the token is explained where it is shown: what it is, not money, the school's say.
  it('says in one sentence what AYAH tokens are', async () => {
    renderWithToasts(<Wallet adapter={fakeWalletAdapter()} />);
    await balances();
    const sentence = screen.getByText(/^AYAH tokens are Ayah's reward tokens/);
    expect(sentence).toHaveTextContent('They are not money');
    expect(sentence).toHaveTextContent('your school decides what they can be swapped for');
  });

  it('pages the activity', async () => {
    const { user } = renderWithToasts(
      <Wallet adapter={fakeWalletAdapter({}, { activity: manyActivities(12) })} />,
    );
    await screen.findByText('Activity 1');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Activity 11')).toBeInTheDocument();
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('converts: the button waits for a valid amount, then the result, then new balances', async () => {
    let points = 1250;
    const adapter = fakeWalletAdapter({
      balance: async () => ({ points, tokens: (1250 - points) / 10 }),
      convert: async (body) => {
        points -= body.points;
        return { transaction: transaction('success', body.points) };
      },
    });
    const { user } = renderWithToasts(<Wallet adapter={adapter} />);
    await balances();
    await user.click(screen.getByRole('button', { name: 'Convert to AYAH' }));
    const dialog = await screen.findByRole('dialog', { name: 'Convert points to AYAH' });
    const input = within(dialog).getByLabelText('Points to convert');
    const convert = within(dialog).getByRole('button', { name: 'Convert' });
    await user.type(input, '50');
    expect(convert).toBeDisabled();
    expect(input).toHaveAccessibleDescription('Convert at least 100 points');
    await user.clear(input);
    await user.type(input, '2000');
    expect(input).toHaveAccessibleDescription('You have only 1250 points');
    await user.clear(input);
    await user.type(input, '255');
    expect(input).toHaveAccessibleDescription('Convert points in steps of 10');
    await user.clear(input);
    await user.type(input, '250');
    expect(within(dialog).getByTestId('tokens-to-receive')).toHaveTextContent('25 AYAH');
    expect(convert).toBeEnabled();
    await user.click(convert);
    const result = await screen.findByRole('dialog', { name: 'Conversion complete' });
    expect(result).toHaveTextContent('You converted 250 points into 25 AYAH.');
    await user.click(within(result).getByRole('button', { name: 'Done' }));
    await waitFor(async () => expect(await balances()).toHaveTextContent('1,000 points'));
    expect(await balances()).toHaveTextContent('25 AYAH');
  });

  it('says a failed conversion kept the points', async () => {
    const adapter = fakeWalletAdapter({
      convert: async () => ({ transaction: transaction('failed') }),
    });
    const { user } = renderWithToasts(<Wallet adapter={adapter} />);
    await balances();
    await user.click(screen.getByRole('button', { name: 'Convert to AYAH' }));
    await user.type(await screen.findByLabelText('Points to convert'), '200');
    await user.click(screen.getByRole('button', { name: 'Convert' }));
    const result = await screen.findByRole('dialog', { name: 'Conversion failed' });
    expect(within(result).getByRole('alert')).toHaveTextContent('Your points were not spent.');
  });

  it('reloads on the refresh-wallet event', async () => {
    let points = 100;
    renderWithToasts(
      <Wallet adapter={fakeWalletAdapter({ balance: async () => ({ points, tokens: 0 }) })} />,
    );
    expect(await balances()).toHaveTextContent('100 points');
    points = 150;
    act(() => refreshWallets());
    await waitFor(async () => expect(await balances()).toHaveTextContent('150 points'));
  });

  it("shows a guest's local points", async () => {
    const items = new Map<string, string>();
    const storage = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: items.set.bind(items),
    };
    renderWithToasts(<Wallet adapter={guestWallet(storage)} />);
    expect(await balances()).toHaveTextContent('100 points');
    expect(screen.getByText('Welcome bonus')).toBeInTheDocument();
    expect(screen.getByText('First meal')).toBeInTheDocument();
  });
});

describe('<WalletDialog>', () => {
  it('opens from its trigger with the balances and reloads after an award', async () => {
    let points = 1250;
    const adapter = fakeWalletAdapter({ balance: async () => ({ points, tokens: 125 }) });
    const { user } = renderWithToasts(
      <WalletDialog adapter={adapter} trigger={<Button>Wallet</Button>} walletHref="/wallet" />,
    );
    await user.click(screen.getByRole('button', { name: 'Wallet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Wallet' });
    await waitFor(() => expect(dialog).toHaveTextContent('1,250 points'));
    points = 1300;
    act(() => refreshWallets());
    await waitFor(() => expect(dialog).toHaveTextContent('1,300 points'));
    expect(within(dialog).getByRole('link', { name: 'Open wallet' })).toHaveAttribute(
      'href',
      '/wallet',
    );
  });

  it("goes to the wallet page through the host's router, closing first", async () => {
    const onNavigate = vi.fn();
    const { user } = renderWithToasts(
      <WalletDialog
        adapter={fakeWalletAdapter()}
        trigger={<Button>Wallet</Button>}
        walletHref="/wallet"
        onNavigate={onNavigate}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Wallet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Wallet' });
    await user.click(within(dialog).getByRole('link', { name: 'Open wallet' }));
    expect(onNavigate).toHaveBeenCalledWith('/wallet');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
