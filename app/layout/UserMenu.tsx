import { useLocation } from 'wouter';
import { useAuth } from 'ayah-coach/auth';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  VisuallyHidden,
} from 'ayah-coach';

/** The sidebar's user menu (spec section 2): Profile Settings, Sign Out. */
export function UserMenu() {
  const { user, signOut } = useAuth();
  const [, navigate] = useLocation();
  const name = user?.display_name || user?.email || 'Student';
  return (
    <DropdownMenu>
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
        <DropdownMenuItem onSelect={() => navigate('/settings')}>Profile Settings</DropdownMenuItem>
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
  );
}
