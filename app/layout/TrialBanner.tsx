import { Button, XIcon } from 'ayah-coach';
import { useAuth } from 'ayah-coach/auth';

/** DECISIONS.md: when a call says TRIAL_EXPIRED, a dismissible banner says so; nothing is blocked. */
export function TrialBanner() {
  const { trialExpired, dismissTrialExpired } = useAuth();
  if (!trialExpired) return null;
  return (
    <div
      role="status"
      className="ay:flex ay:items-center ay:justify-center ay:gap-3 ay:bg-secondary ay:px-4 ay:py-2 ay:text-sm ay:text-secondary-foreground"
    >
      <p>Your free trial has ended. You can keep learning with Ayah.</p>
      <Button variant="ghost" size="icon" aria-label="Dismiss" onClick={dismissTrialExpired}>
        <XIcon />
      </Button>
    </div>
  );
}
