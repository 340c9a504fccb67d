import * as DropdownMenuPrimitive from '@radix-ui/react-dropdown-menu';
import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';

import { cn } from '../lib/cn';
import { PortalScope } from './root';

export interface DropdownMenuProps extends ComponentProps<typeof DropdownMenuPrimitive.Root> {
  /**
   * A modal menu hides the rest of the page from assistive technology and locks its scrolling and
   * pointer events. Ayah lives inside a host's page, so its menus leave that page alone: focus still
   * moves into the menu, Escape and a click outside still close it and return focus to the trigger.
   * @default false
   */
  modal?: boolean;
}

/** A menu of actions (Radix): arrow keys move, Enter or Space picks, Escape closes and returns focus. */
export function DropdownMenu({ modal = false, ...props }: DropdownMenuProps) {
  return <DropdownMenuPrimitive.Root data-slot="dropdown-menu" modal={modal} {...props} />;
}

/** Opens the menu. Use `asChild` with a `Button`; an icon-only trigger needs an `aria-label`. */
export function DropdownMenuTrigger(props: ComponentProps<typeof DropdownMenuPrimitive.Trigger>) {
  return <DropdownMenuPrimitive.Trigger data-slot="dropdown-menu-trigger" {...props} />;
}

export function DropdownMenuGroup(props: ComponentProps<typeof DropdownMenuPrimitive.Group>) {
  return <DropdownMenuPrimitive.Group data-slot="dropdown-menu-group" {...props} />;
}

/** The menu panel, portalled to `document.body` inside Ayah's CSS scope. */
export function DropdownMenuContent({
  className,
  sideOffset = 4,
  ...props
}: ComponentProps<typeof DropdownMenuPrimitive.Content>) {
  return (
    <DropdownMenuPrimitive.Portal>
      <PortalScope>
        <DropdownMenuPrimitive.Content
          data-slot="dropdown-menu-content"
          sideOffset={sideOffset}
          className={cn(
            'ay:z-50 ay:min-w-[160px] ay:overflow-x-hidden ay:overflow-y-auto ay:rounded-md ay:border',
            'ay:max-h-(--radix-dropdown-menu-content-available-height) ay:border-border ay:bg-background',
            'ay:p-1 ay:text-foreground ay:shadow-popover ay:data-[state=open]:animate-fade-in',
            className,
          )}
          {...props}
        />
      </PortalScope>
    </DropdownMenuPrimitive.Portal>
  );
}

export const dropdownMenuItemVariants = cva(
  [
    'ay:relative ay:flex ay:cursor-default ay:items-center ay:gap-2 ay:rounded-sm ay:px-2 ay:py-1.5',
    'ay:text-sm ay:outline-hidden ay:select-none ay:data-disabled:pointer-events-none',
    "ay:data-disabled:opacity-50 ay:[&_svg:not([class*='size-'])]:size-4",
  ],
  {
    variants: {
      variant: {
        default: 'ay:text-foreground ay:data-highlighted:bg-muted',
        destructive:
          'ay:text-destructive ay:data-highlighted:bg-destructive ay:data-highlighted:text-destructive-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export interface DropdownMenuItemProps
  extends
    ComponentProps<typeof DropdownMenuPrimitive.Item>,
    VariantProps<typeof dropdownMenuItemVariants> {}

/** One action. `variant="destructive"` for Delete and the like; `onSelect` runs it. */
export function DropdownMenuItem({ className, variant, ...props }: DropdownMenuItemProps) {
  return (
    <DropdownMenuPrimitive.Item
      data-slot="dropdown-menu-item"
      data-variant={variant ?? 'default'}
      className={cn(dropdownMenuItemVariants({ variant }), className)}
      {...props}
    />
  );
}

/** A heading for a group of items (not focusable). */
export function DropdownMenuLabel({
  className,
  ...props
}: ComponentProps<typeof DropdownMenuPrimitive.Label>) {
  return (
    <DropdownMenuPrimitive.Label
      data-slot="dropdown-menu-label"
      className={cn(
        'ay:px-2 ay:py-1.5 ay:text-xs ay:font-semibold ay:text-muted-foreground',
        className,
      )}
      {...props}
    />
  );
}

export function DropdownMenuSeparator({
  className,
  ...props
}: ComponentProps<typeof DropdownMenuPrimitive.Separator>) {
  return (
    <DropdownMenuPrimitive.Separator
      data-slot="dropdown-menu-separator"
      className={cn('ay:-mx-1 ay:my-1 ay:h-px ay:bg-border', className)}
      {...props}
    />
  );
}
