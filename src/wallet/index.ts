// The points wallet (`ayah-coach/wallet`): balances, activity, the conversion to AYAH, guests' points.
export type * from './wallet.adapter';
export { Wallet, type WalletHandle, type WalletProps } from './Wallet';
export { WalletDialog, type WalletDialogProps } from './WalletDialog';
export { ConversionDialog, type ConversionActorRef } from './ConversionDialog';
export { WalletBalances, type WalletBalancesProps } from './WalletBalances';
export { guestWallet, GUEST_POINTS_KEY, type GuestWallet } from './guest-wallet';
export { refreshWallets } from '../lib/wallet-events';
export {
  conversionLogic,
  conversionMachine,
  DEFAULT_CONVERSION_INFO,
  FOLLOW,
  followDelay,
  type ConversionContext,
  type ConversionEvent,
} from './conversion.machine';
export { walletLogic, walletMachine, type WalletContext, type WalletEvent } from './wallet.machine';
export { REFRESH_WALLET_EVENT } from '../lib/messages';
