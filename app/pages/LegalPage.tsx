import { Button, LoadingStatus, pageTitleClass } from 'ayah-coach';
import type { LegalPage, LegalPageName } from 'ayah-coach/auth';
import { Markdown } from 'ayah-coach/markdown';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';

import { useApi } from '../api';

type Loaded = { page: LegalPage } | { error: true } | null;

/** /terms and /privacy: the school's text (or the server's default), as a plain reading page. */
export default function Page() {
  const api = useApi();
  const [pathname, navigate] = useLocation();
  const name: LegalPageName = pathname === '/privacy' ? 'privacy' : 'terms';
  const [fetched, setLoaded] = useState<Loaded>(null);
  // A backend without the call: say the page is unavailable.
  const loaded: Loaded = api.auth.legalPage ? fetched : { error: true };

  useEffect(() => {
    const controller = new AbortController();
    const load = api.auth.legalPage;
    if (!load) return;
    load(name, { signal: controller.signal })
      .then((page) => setLoaded({ page }))
      .catch(() => !controller.signal.aborted && setLoaded({ error: true }));
    return () => controller.abort();
  }, [api, name]);

  return (
    <div className="ay:flex ay:flex-1 ay:justify-center ay:bg-backdrop ay:px-4 ay:py-8">
      <article className="ay:flex ay:w-full ay:max-w-2xl ay:flex-col ay:gap-4 ay:rounded-lg ay:border ay:border-border ay:bg-background ay:p-6">
        {loaded === null && <LoadingStatus showLabel label="Loading…" />}
        {loaded && 'error' in loaded && (
          <>
            <h1 className={pageTitleClass}>
              {name === 'terms' ? 'Terms of use' : 'Privacy notice'}
            </h1>
            <p role="alert">This page could not be loaded. Please try again later.</p>
          </>
        )}
        {loaded && 'page' in loaded && (
          <>
            <h1 className={pageTitleClass}>{loaded.page.title}</h1>
            <Markdown content={loaded.page.markdown} />
          </>
        )}
        <Button variant="outline" className="ay:self-start" onClick={() => history.back()}>
          Back
        </Button>
        <Button variant="link" className="ay:self-start ay:px-0" onClick={() => navigate('/auth')}>
          Go to sign in
        </Button>
      </article>
    </div>
  );
}
