import { useLocation } from 'wouter';
import { OAuthCallback, useAuth } from 'ayah-coach/auth';

/** The return from Google sign-in: reads the token, clears the address bar, and moves on. */
export default function Page() {
  const { signIn } = useAuth();
  const [, navigate] = useLocation();
  return (
    <OAuthCallback onSignedIn={signIn} onNavigate={(path) => navigate(path, { replace: true })} />
  );
}
