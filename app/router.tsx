import { type ComponentType, lazy, Suspense, useState } from 'react';
import { Redirect, Route, Switch } from 'wouter';

import { type FirstPage, firstPage, hasStoredSession } from './first-load';
import { PublicOnly, RequireSignedIn } from './guards';
import { PageSkeleton } from './layout/PageSkeleton';

type Loader = () => Promise<{ default: ComponentType }>;
type Page = ComponentType & { load: Loader };

/**
 * Each page is its own chunk, so the first load of /auth carries no chat, markdown, KaTeX or ethers.
 * A page whose chunk has already loaded (the first page, below) renders at once, without a turn of
 * the Suspense fallback; one mounted before that stays the lazy one, so it is never remounted.
 */
function page(load: Loader): Page {
  let loaded: ComponentType | null = null;
  const loadOnce = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(loadOnce);
  function Page() {
    const [Ready] = useState(() => loaded);
    return Ready ? <Ready /> : <Lazy />;
  }
  return Object.assign(Page, { load: loadOnce });
}
const AuthPage = page(() => import('./pages/AuthPage'));
const OAuthCallbackPage = page(() => import('./pages/OAuthCallbackPage'));
const VerifyEmailPage = page(() => import('./pages/VerifyEmailPage'));
const ResetPasswordPage = page(() => import('./pages/ResetPasswordPage'));
const OnboardingPage = page(() => import('./pages/OnboardingPage'));
const AssistantPage = page(() => import('./pages/AssistantPage'));
const GoalPage = page(() => import('./pages/GoalPage'));
const WalletPage = page(() => import('./pages/WalletPage'));
const SettingsPage = page(() => import('./pages/SettingsPage'));
const TeachPage = page(() => import('./pages/TeachPage'));
const WellnessPage = page(() =>
  import('./pages/ToolPage').then((m) => ({ default: m.WellnessPage })),
);
const NutritionPage = page(() =>
  import('./pages/ToolPage').then((m) => ({ default: m.NutritionPage })),
);
const ExercisePage = page(() =>
  import('./pages/ToolPage').then((m) => ({ default: m.ExercisePage })),
);

const LegalPage = page(() => import('./pages/LegalPage'));

// The first page starts loading as this module runs (its files were preloaded from the HTML): signed
// in, it is ready by the time the session's /me answers, instead of being fetched after it.
const FIRST: Record<FirstPage, Page> = { AuthPage, AssistantPage };
const first = firstPage(location.pathname, hasStoredSession());
const firstLoad = first ? FIRST[first].load().catch(() => {}) : Promise.resolve();

/**
 * Settles once the first page's code is in (or could not load): hydrating the prerendered screen after
 * that claims it whole, the page included, rather than leaving it dehydrated behind a Suspense boundary.
 */
export function firstPageLoaded(): Promise<unknown> {
  return firstLoad;
}

/** The routes of spec section 2 and DECISIONS.md for this slice. */
export function AppRoutes() {
  return (
    <Suspense fallback={<PageSkeleton />}>
      <Switch>
        <Route path="/">
          <Redirect to="/assistant" replace />
        </Route>
        <Route path="/auth">
          <PublicOnly>
            <AuthPage />
          </PublicOnly>
        </Route>
        <Route path="/login">
          <PublicOnly>
            <AuthPage />
          </PublicOnly>
        </Route>
        <Route path="/register">
          <PublicOnly>
            <AuthPage />
          </PublicOnly>
        </Route>
        <Route path="/oauth-callback" component={OAuthCallbackPage} />
        <Route path="/terms" component={LegalPage} />
        <Route path="/privacy" component={LegalPage} />
        <Route path="/verify-email" component={VerifyEmailPage} />
        <Route path="/reset-password" component={ResetPasswordPage} />
        <Route path="/onboarding">
          <RequireSignedIn>
            <OnboardingPage />
          </RequireSignedIn>
        </Route>
        <Route path="/assistant">
          <RequireSignedIn preview>
            <AssistantPage />
          </RequireSignedIn>
        </Route>
        <Route path="/goal">
          <RequireSignedIn>
            <GoalPage />
          </RequireSignedIn>
        </Route>
        <Route path="/wallet">
          <RequireSignedIn>
            <WalletPage />
          </RequireSignedIn>
        </Route>
        <Route path="/teach">
          <RequireSignedIn>
            <TeachPage />
          </RequireSignedIn>
        </Route>
        <Route path="/settings">
          <RequireSignedIn>
            <SettingsPage />
          </RequireSignedIn>
        </Route>
        <Route path="/wellness" component={WellnessPage} />
        <Route path="/nutrition" component={NutritionPage} />
        <Route path="/exercise" component={ExercisePage} />
        <Route>
          <Redirect to="/assistant" replace />
        </Route>
      </Switch>
    </Suspense>
  );
}
