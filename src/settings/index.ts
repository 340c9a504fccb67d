// The account settings (`ayah-coach/settings`): Profile, Security, Data Controls and the wallet.
export type * from './settings.adapter';
export { Settings, type SettingsProps, type SettingsSection } from './Settings';
export { SettingsDialog, type SettingsDialogProps } from './SettingsDialog';
export { noPasswordReason } from './SecuritySection';
export { deletionConfirmation, type DeletionSigner } from './AccountSection';
export { walletDeletionSigner, type SigningWallet } from './wallet-deletion';
export {
  profileLogic,
  profileMachine,
  profileUpdate,
  type ProfileContext,
  type ProfileEvent,
} from './profile.machine';
export {
  passwordLogic,
  passwordMachine,
  passwordServerError,
  type PasswordEvent,
} from './password.machine';
export {
  archiveLogic,
  archiveMachine,
  type ArchiveContext,
  type ArchiveEvent,
} from './archive.machine';
export { accountLogic, accountMachine, type AccountEvent } from './account.machine';
export type { SettingsNotice } from './settings.notices';
export { SETTINGS_MESSAGES, REFRESH_CHAT_HISTORY_EVENT } from '../lib/messages';
