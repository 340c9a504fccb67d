import { useAuth } from 'ayah-coach/auth';
import { type ReactNode, useEffect, useState } from 'react';
import { Redirect, useLocation } from 'wouter';

import { PageSkeleton } from './layout/PageSkeleton';

/**
 * Protected routes: a skeleton while the session loads (or, for a page that can show itself before it
 * knows the user, that page: its `preview`), /auth (replacing history) for a signed-out visitor, and
 * /onboarding for a student who has not finished it.
 */
export function RequireSignedIn({
  children,
  preview = false,
}: {
  children: ReactNode;
  /** The page renders while the session loads, without a user (the prerendered signed-in shell). */
  preview?: boolean;
}) {
  const { isLoading, user } = useAuth();
  const [location] = useLocation();
  const onboarding = location === '/onboarding';
  // Every signed-in page but onboarding has the phone header (SidebarLayout).
  if (isLoading) return preview ? children : <PageSkeleton header={!onboarding} />;
  if (!user) return <Redirect to="/auth" replace />;
  if (!user.onboarding_completed && !onboarding) return <Redirect to="/onboarding" replace />;
  if (user.onboarding_completed && onboarding) return <Redirect to="/assistant" replace />;
  return children;
}

/**
 * /auth, /login and /register: a visitor who arrives signed in is sent on to the app at once. One who
 * signs in here is sent on a moment later, once the screen has finished (its 'Signed in successfully!'
 * toast comes after the session has the user).
 */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { isLoading, user } = useAuth();
  const [arrival, setArrival] = useState<'signedIn' | 'guest' | null>(null);
  // Recorded once, during render (React's pattern for state derived from an earlier render).
  if (arrival === null && !isLoading) setArrival(user ? 'signedIn' : 'guest');
  // Only the first load shows the skeleton: signing in here loads the user too, and the screen
  // must stay mounted through it to finish.
  if (arrival === null) return <PageSkeleton />;
  if (user && arrival === 'signedIn') return <Redirect to="/assistant" replace />;
  return (
    <>
      {user && <RedirectSoon to="/assistant" />}
      {children}
    </>
  );
}

function RedirectSoon({ to }: { to: string }) {
  const [, navigate] = useLocation();
  useEffect(() => {
    const timer = setTimeout(() => navigate(to, { replace: true }), 0);
    return () => clearTimeout(timer);
  }, [navigate, to]);
  return null;
}
