import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  lazyComponent,
  MountOnOpen,
  VisuallyHidden,
} from 'ayah-coach';
import { useAuth } from 'ayah-coach/auth';
import { useState } from 'react';
import { useLocation } from 'wouter';

import { SidebarWallet } from './SidebarWallet';
import { TeachLink } from './TeachLink';
import { useMediaQuery } from './use-media-query';

const [SettingsPopup, preloadSettingsPopup] = lazyComponent(
  () => import('./SettingsPopup'),
  'SettingsPopup',
);

/**
 * The foot of the sidebar (spec section 2): the wallet modal, and the user menu with Profile Settings
 * (the /settings page on wide screens, a popup on phones) and Sign Out.
 */
export function UserMenu() {
  const { user, signOut } = useAuth();
  const [, navigate] = useLocation();
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Tailwind's md breakpoint (48rem): below it, settings open over the page.
  const wide = useMediaQuery('(min-width: 48rem)');
  const name = user?.display_name || user?.email || 'Student';
  return (
    <div className="ay:flex ay:flex-col ay:gap-1">
      <TeachLink />
      <SidebarWallet />
      {/* On a phone, Profile Settings opens the popup: its code starts loading with the menu. */}
      <DropdownMenu onOpenChange={(open) => open && !wide && preloadSettingsPopup()}>
        <DropdownMenuTrigger className="ay:flex ay:w-full ay:items-center ay:gap-2 ay:rounded-md ay:px-2 ay:py-2 ay:text-start ay:text-sm ay:hover:bg-muted">
          <VisuallyHidden>Account menu: </VisuallyHidden>
          <span
            aria-hidden="true"
            className="ay:flex ay:size-8 ay:shrink-0 ay:items-center ay:justify-center ay:rounded-full ay:bg-secondary ay:font-semibold ay:text-secondary-foreground"
          >
            {name.slice(0, 1).toUpperCase()}
          </span>
          <span className="ay:truncate">{name}</span>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" side="top">
          <DropdownMenuLabel>{user?.email}</DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => (wide ? navigate('/settings') : setSettingsOpen(true))}>
            Profile Settings
          </DropdownMenuItem>
          <DropdownMenuItem
            onSelect={() => {
              signOut();
              navigate('/auth', { replace: true });
            }}
          >
            Sign Out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <MountOnOpen open={settingsOpen}>
        <SettingsPopup open={settingsOpen} onOpenChange={setSettingsOpen} />
      </MountOnOpen>
    </div>
  );
}
