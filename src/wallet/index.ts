// The points wallet (`ayah-coach/wallet`): balances, activity, the conversion to AYAH, guests' points.
export { REFRESH_WALLET_EVENT } from '../lib/messages';
export { refreshWallets } from '../lib/wallet-events';
export { conversionLogic, conversionMachine } from './conversion.machine';
export { DEFAULT_CONVERSION_INFO, FOLLOW, followDelay } from './conversion.setup';
export { type ConversionActorRef, ConversionDialog } from './ConversionDialog';
export { GUEST_POINTS_KEY, type GuestWallet, guestWallet } from './guest-wallet';
export { Wallet, type WalletHandle, type WalletProps } from './Wallet';
export type * from './wallet.adapter';
export { walletLogic, walletMachine } from './wallet.machine';
export type {
  ConversionContext,
  ConversionEvent,
  WalletContext,
  WalletEvent,
} from './wallet.types';
export { WalletBalances, type WalletBalancesProps } from './WalletBalances';
export { WalletDialog, type WalletDialogProps } from './WalletDialog';
