/**
 * The build's prerender (scripts/prerender.mjs runs this module, built for Node): the HTML of the app's
 * first render for the two visits worth a first paint before React (app/first-load.ts's PRERENDERED):
 * /auth signed out (the sign-in screen) and /assistant signed in (the shell: sidebar, header, empty
 * chat, composer). Each is exactly what the browser's first render of that visit gives, so main.tsx
 * hydrates it without a mismatch.
 */
import { createHttpApi } from 'ayah-coach';
import { memoryStorage } from 'ayah-coach/auth';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';

import { PRERENDERED, type Prerendered } from './first-load';
import { HeaderCollector } from './layout/AppShell';

export interface PrerenderedScreen {
  /** The app's root, as the browser's first render gives it. */
  html: string;
  /** The page's header (portalled by the browser, which the server cannot do), for the header slot. */
  header: string;
}

export async function render(screen: Prerendered): Promise<PrerenderedScreen> {
  const [path, pair] = Object.entries(PRERENDERED).find(([, p]) => p.includes(screen))!;
  const signedIn = pair[1] === screen;
  // What the app's modules read of the page: its address (the router), no stored session of its own.
  Object.assign(globalThis, { location: new URL(`http://localhost${path}`) });
  const { AppTree } = await import('./app-tree');
  // An API that is never asked: nothing runs effects on the server.
  const api = createHttpApi({ baseURL: 'http://localhost', fetch: () => new Promise(() => {}) });
  const headers: string[] = [];
  const tree = (
    <HeaderCollector
      value={({ className, children }) =>
        headers.push(
          renderToStaticMarkup(
            <header className={className} data-prerendered-header="">
              {children}
            </header>,
          ),
        )
      }
    >
      <AppTree
        api={api}
        sessionAdapter={api.auth}
        // Signed in, a stored token: the session is loading it, as in the browser.
        storage={memoryStorage(signedIn ? { authToken: 'prerender' } : {})}
      />
    </HeaderCollector>
  );
  const { prelude } = await prerenderToNodeStream(tree);
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  // StrictMode renders twice: the last header is the page's.
  return { html, header: headers.at(-1) ?? '' };
}
