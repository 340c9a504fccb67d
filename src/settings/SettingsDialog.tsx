import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../ui/dialog';
import { VisuallyHidden } from '../ui/visually-hidden';
import { Settings, type SettingsProps } from './Settings';

export interface SettingsDialogProps extends Omit<SettingsProps, 'headingLevel'> {
  /** Whether the popup is open (controlled). */
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Settings as a popup, for phones (opened from the user menu's Profile Settings). */
export function SettingsDialog({ open, onOpenChange, className, ...props }: SettingsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        data-slot="settings-dialog"
        className="ay:max-h-[90dvh] ay:w-[calc(100vw-16px)] ay:max-w-2xl ay:overflow-y-auto ay:p-0"
      >
        <div className="ay:px-4 ay:pt-4">
          <DialogTitle>Settings</DialogTitle>
          <VisuallyHidden>
            <DialogDescription>Your profile, password, chats and wallet.</DialogDescription>
          </VisuallyHidden>
        </div>
        {open && <Settings {...props} headingLevel={null} className={className} />}
      </DialogContent>
    </Dialog>
  );
}
