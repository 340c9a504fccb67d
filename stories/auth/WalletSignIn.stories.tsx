import type { Meta, StoryObj } from '@storybook/react-vite';
import { AuthScreen } from 'ayah-coach/auth';
import { AUTH_MESSAGES } from 'ayah-coach/rules';
import { Wallet } from 'ethers';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';

import { apiError, fakeAuthAdapter, rejects } from '../../fakes/auth';
import { ALICE_KEY, BOB_KEY, fakeEip1193, type WalletMode } from '../../fakes/eip1193';
import { clearToasts, toastsSettled } from '../support';

const alice = new Wallet(ALICE_KEY);
const bob = new Wallet(BOB_KEY);

/** The MetaMask choice of the sign-in screen, driven by an EIP-1193 wallet backed by ethers. */
const meta = {
  title: 'Auth/AuthScreen/MetaMask',
  component: AuthScreen,
  args: {
    adapter: fakeAuthAdapter(),
    onSignedIn: fn(),
    onNavigate: fn(),
    redirect: fn(),
    reducedMotion: true,
  },
  beforeEach: clearToasts,
} satisfies Meta<typeof AuthScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

const wallet = (mode: WalletMode = 'ok') => fakeEip1193({ wallet: alice, mode });

async function connect(canvasElement: HTMLElement) {
  await userEvent.click(
    within(canvasElement).getByRole('button', { name: 'Continue with MetaMask' }),
  );
}

/** The wallet part's own status line (the loading toast is a status too). */
function walletStatus(canvasElement: HTMLElement) {
  const status = canvasElement.querySelector('[data-slot="wallet-sign-in"] [role="status"]');
  if (!status) throw new Error('No wallet status');
  return status;
}

function failsWith(message: string): Story['play'] {
  return async ({ canvasElement }) => {
    await connect(canvasElement);
    const alert = await within(canvasElement).findByRole('alert', {}, { timeout: 3000 });
    await expect(alert).toHaveTextContent(message);
  };
}

export const NotInstalled: Story = {
  args: { ethereum: null },
  play: async (context) => {
    await failsWith('MetaMask is not installed. Please install MetaMask extension.')!(context);
    await expect(
      within(context.canvasElement).getByRole('link', { name: /Get MetaMask/ }),
    ).toHaveAttribute('target', '_blank');
  },
};

export const Connecting: Story = {
  args: { ethereum: wallet('neverConnect') },
  play: async ({ canvasElement }) => {
    await connect(canvasElement);
    const canvas = within(canvasElement);
    await expect(walletStatus(canvasElement)).toHaveTextContent(
      'Approve the connection in MetaMask…',
    );
    await expect(canvas.getByRole('button', { name: 'Continue with MetaMask' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
    // The 5000 ms loading toast.
    await expect(await canvas.findByText(AUTH_MESSAGES.walletConnecting)).toBeVisible();
    await toastsSettled();
  },
};

export const ConnectionRejected: Story = {
  args: { ethereum: wallet('rejectConnect') },
  play: failsWith('User rejected the connection request.'),
};

export const NoAccounts: Story = {
  args: { ethereum: wallet('noAccounts') },
  play: failsWith('No accounts found...'),
};

export const Signing: Story = {
  args: { ethereum: wallet('neverSign') },
  play: async ({ canvasElement }) => {
    await connect(canvasElement);
    await waitFor(() =>
      expect(walletStatus(canvasElement)).toHaveTextContent(
        'Sign the message in MetaMask to continue…',
      ),
    );
  },
};

export const SignatureRejected: Story = {
  args: { ethereum: wallet('rejectSign') },
  play: failsWith('User rejected the signature request.'),
};

export const ServerRefused: Story = {
  args: {
    ethereum: wallet(),
    adapter: fakeAuthAdapter({ web3Authenticate: rejects(apiError(401, 'Invalid signature')) }),
  },
  play: failsWith('Invalid signature'),
};

export const Connected: Story = {
  args: { ethereum: wallet() },
  play: async ({ canvasElement, args }) => {
    await connect(canvasElement);
    await waitFor(() =>
      expect(walletStatus(canvasElement)).toHaveTextContent('Connected as 0x2c75…5c23'),
    );
    await expect(args.onSignedIn).toHaveBeenCalledWith('tok-fake', 'refresh-fake');
  },
};

const switching = wallet();

/** Signed in, then the wallet moves to another account: disconnected, with the warning. */
export const WrongAccount: Story = {
  args: { ethereum: switching },
  play: async ({ canvasElement }) => {
    await connect(canvasElement);
    const canvas = within(canvasElement);
    await waitFor(() => expect(walletStatus(canvasElement)).toHaveTextContent('Connected as'));
    switching.switchAccount(bob);
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      `Please connect to your registered wallet address: ${alice.address}`,
    );
  },
};

const switchingMidway = wallet('neverSign');

/** Another account chosen while the signature is awaited: the sign-in fails. */
export const WrongAccountWhileSigning: Story = {
  args: { ethereum: switchingMidway },
  play: async ({ canvasElement }) => {
    await connect(canvasElement);
    const canvas = within(canvasElement);
    await waitFor(() => expect(walletStatus(canvasElement)).toHaveTextContent('Sign the message'));
    switchingMidway.switchAccount(bob);
    await expect(await canvas.findByRole('alert')).toHaveTextContent(
      `Please connect to your registered wallet address: ${alice.address}`,
    );
  },
};
