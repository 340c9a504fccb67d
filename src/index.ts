// The public surface of ayah-coach, and nothing else.
export { AyahRoot, PortalScope, useTheme, type Theme, type AyahRootProps } from './ui/root';
export { Toaster, toast } from './ui/toast';
export { cn } from './lib/cn';
