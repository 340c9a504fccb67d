// The account settings (`ayah-coach/settings`): Profile, Security, Data Controls and the wallet.
export { REFRESH_CHAT_HISTORY_EVENT, SETTINGS_MESSAGES } from '../lib/messages';
export { accountLogic, accountMachine } from './account.machine';
export { type AccountEvent } from './account.setup';
export { deletionConfirmation, type DeletionSigner } from './AccountSection';
export { archiveLogic, archiveMachine } from './archive.machine';
export { type ArchiveContext, type ArchiveEvent } from './archive.setup';
export { passwordLogic, passwordMachine } from './password.machine';
export { type PasswordEvent, passwordServerError } from './password.setup';
export { profileLogic, profileMachine } from './profile.machine';
export { type ProfileContext, type ProfileEvent, profileUpdate } from './profile.setup';
export { noPasswordReason } from './SecuritySection';
export { Settings, type SettingsProps, type SettingsSection } from './Settings';
export type * from './settings.adapter';
export type { SettingsNotice } from './settings.notices';
export { SettingsDialog, type SettingsDialogProps } from './SettingsDialog';
export { type SigningWallet, walletDeletionSigner } from './wallet-deletion';
