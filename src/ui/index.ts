// Ayah's UI primitives, in the shadcn manner: one file each, variants exported beside the component.
export { Button, type ButtonProps, buttonVariants } from './button';
export { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';
export {
  Dialog,
  DialogClose,
  DialogContent,
  type DialogContentProps,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogOverlay,
  DialogTitle,
  DialogTrigger,
} from './dialog';
export {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  type DropdownMenuItemProps,
  dropdownMenuItemVariants,
  DropdownMenuLabel,
  type DropdownMenuProps,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './dropdown-menu';
export { Field, type FieldControlProps, type FieldProps, useFieldControl } from './field';
export * from './icons';
export { Input, inputVariants } from './input';
export { Label } from './label';
export { lazyComponent } from './lazy-component';
export { AyahLogo, type AyahLogoProps } from './logo';
export { MountOnOpen, type MountOnOpenProps } from './mount-on-open';
export { pageTitleClass } from './page-title';
export { PasswordInput, type PasswordInputProps } from './password-input';
export {
  PasswordRequirements,
  type PasswordRequirementsProps,
  requirementVariants,
} from './password-requirements';
export {
  PasswordStrength,
  type PasswordStrengthProps,
  strengthSegmentVariants,
} from './password-strength';
export {
  Progress,
  progressIndicatorVariants,
  type ProgressProps,
  progressVariants,
} from './progress';
export { AyahRoot, type AyahRootProps, PortalScope, type Theme, useTheme } from './root';
export { LoadingStatus, type LoadingStatusProps, Skeleton } from './skeleton';
export { Spinner, type SpinnerProps } from './spinner';
export {
  EnglishIcon,
  HistoryIcon,
  MathIcon,
  ScienceIcon,
  SubjectIcon,
  type SubjectIconProps,
} from './subject-icons';
export { Textarea } from './textarea';
export { loadToaster, toast, Toaster } from './toast';
export { VisuallyHidden } from './visually-hidden';
