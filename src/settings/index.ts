// The account settings (`ayah-coach/settings`): Profile, Security, Data Controls and the wallet.
export { REFRESH_CHAT_HISTORY_EVENT, SETTINGS_MESSAGES } from '../lib/messages';
export { type AccountEvent, accountLogic, accountMachine } from './account.machine';
export { deletionConfirmation, type DeletionSigner } from './AccountSection';
export {
  type ArchiveContext,
  type ArchiveEvent,
  archiveLogic,
  archiveMachine,
} from './archive.machine';
export {
  type PasswordEvent,
  passwordLogic,
  passwordMachine,
  passwordServerError,
} from './password.machine';
export {
  type ProfileContext,
  type ProfileEvent,
  profileLogic,
  profileMachine,
  profileUpdate,
} from './profile.machine';
export { noPasswordReason } from './SecuritySection';
export { Settings, type SettingsProps, type SettingsSection } from './Settings';
export type * from './settings.adapter';
export type { SettingsNotice } from './settings.notices';
export { SettingsDialog, type SettingsDialogProps } from './SettingsDialog';
export { type SigningWallet, walletDeletionSigner } from './wallet-deletion';
