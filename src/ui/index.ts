// Ayah's UI primitives, in the shadcn manner: one file each, variants exported beside the component.
export { AyahRoot, PortalScope, useTheme, type AyahRootProps, type Theme } from './root';
export { Toaster, toast } from './toast';
export { Button, buttonVariants, type ButtonProps } from './button';
export { Label } from './label';
export { Input, inputVariants } from './input';
export { Textarea } from './textarea';
export { Field, useFieldControl, type FieldProps, type FieldControlProps } from './field';
export {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogOverlay,
  DialogTitle,
  DialogTrigger,
  type DialogContentProps,
} from './dialog';
export { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';
export { MountOnOpen, type MountOnOpenProps } from './mount-on-open';
export { lazyComponent } from './lazy-component';
export {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  dropdownMenuItemVariants,
  type DropdownMenuProps,
  type DropdownMenuItemProps,
} from './dropdown-menu';
export { Skeleton, LoadingStatus, type LoadingStatusProps } from './skeleton';
export {
  Progress,
  progressVariants,
  progressIndicatorVariants,
  type ProgressProps,
} from './progress';
export { PasswordInput, type PasswordInputProps } from './password-input';
export {
  PasswordStrength,
  strengthSegmentVariants,
  type PasswordStrengthProps,
} from './password-strength';
export {
  PasswordRequirements,
  requirementVariants,
  type PasswordRequirementsProps,
} from './password-requirements';
export { VisuallyHidden } from './visually-hidden';
export { Spinner, type SpinnerProps } from './spinner';
export * from './icons';
export { AyahLogo, type AyahLogoProps } from './logo';
export {
  EnglishIcon,
  HistoryIcon,
  MathIcon,
  ScienceIcon,
  SubjectIcon,
  type SubjectIconProps,
} from './subject-icons';
