// The account settings (`ayah-coach/settings`): Profile, Security, Data Controls and the wallet.
export { REFRESH_CHAT_HISTORY_EVENT, SETTINGS_MESSAGES } from '../lib/messages';
export { accountLogic, accountMachine } from './account.machine';
export { deletionConfirmation, type DeletionSigner } from './AccountSection';
export { archiveLogic, archiveMachine } from './archive.machine';
export { passwordLogic, passwordMachine } from './password.machine';
export { passwordServerError } from './password.setup';
export { profileLogic, profileMachine } from './profile.machine';
export { profileUpdate } from './profile.setup';
export { noPasswordReason } from './SecuritySection';
export { Settings, type SettingsProps, type SettingsSection } from './Settings';
export type * from './settings.adapter';
export type { SettingsNotice } from './settings.notices';
export type {
  AccountEvent,
  ArchiveContext,
  ArchiveEvent,
  PasswordEvent,
  ProfileContext,
  ProfileEvent,
} from './settings.types';
export { SettingsDialog, type SettingsDialogProps } from './SettingsDialog';
export { type SigningWallet, walletDeletionSigner } from './wallet-deletion';
