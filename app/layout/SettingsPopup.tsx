import { SettingsDialog, type SettingsDialogProps } from 'ayah-coach/settings';

import { useSettingsProps } from './use-settings-props';

/**
 * Settings as a popup, the phone's Profile Settings (UserMenu.tsx). Its own chunk with the settings
 * and the wallet it holds: fetched as the user menu opens on a phone, never with the page.
 */
export function SettingsPopup({
  open,
  onOpenChange,
}: Pick<SettingsDialogProps, 'open' | 'onOpenChange'>) {
  const settings = useSettingsProps();
  return settings && <SettingsDialog {...settings} open={open} onOpenChange={onOpenChange} />;
}
