import type { Plugin, Rollup } from 'vite';

import { FIRST_LOAD_PATHS, firstPage, ME_PATH, SENT_ME } from './first-load.ts';

/**
 * The build's `first-load-[hash].js`, loaded `async` from index.html's head: it adds a modulepreload
 * for each chunk of the page the visitor's path shows (app/first-load.ts), so those download beside the
 * entry instead of after it has run; signed in, it sends the session's first GET /me; and it warms the
 * time zone lookup meanwhile. A plain file rather than an inline script: the app's CSP allows
 * only its own scripts.
 */
export function routePreload(): Plugin {
  return {
    name: 'ayah:route-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') return;
      const chunks = Object.values(bundle).filter(
        (o): o is Rollup.OutputChunk => o.type === 'chunk',
      );
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return;
      const loaded = closure(bundle, [entry.fileName]);
      const filesOf = (page: string) => {
        const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(`/pages/${page}.tsx`));
        if (!chunk) throw new Error(`route-preload: no chunk for ${page}`);
        return [...closure(bundle, [chunk.fileName])]
          .filter((f) => !loaded.has(f))
          .map((f) => `/${f}`);
      };
      // The files of each first page, and path → [page signed out, page signed in].
      const pages: Record<string, string[]> = {};
      const routes: Record<string, [string, string]> = {};
      for (const path of FIRST_LOAD_PATHS) {
        const pair: [string, string] = [firstPage(path, false)!, firstPage(path, true)!];
        for (const page of pair) pages[page] ??= filesOf(page);
        routes[path] = pair;
      }
      const source =
        `(function(){var p=${JSON.stringify(pages)},r=${JSON.stringify(routes)}` +
        `[location.pathname.replace(/(.)\\/+$/,'$1')];` +
        `if(!r)return;var t=null;try{t=localStorage.getItem('authToken')}catch(e){}` +
        `p[r[t?1:0]].forEach(function(f){var l=document.createElement('link');l.rel='modulepreload';` +
        `l.crossOrigin='';l.href=f;document.head.appendChild(l)});` +
        // Signed in, the session's first GET /me goes now, as src/http.ts would send it (the token,
        // the time zone), rather than once the entry has downloaded and run; app/early-me.ts's
        // withSentMe hands its answer to the HTTP layer.
        `if(!t||typeof fetch!=='function')return;var h={accept:'application/json',authorization:'Bearer '+t};` +
        `try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z)h['x-timezone']=z}catch(e){}` +
        `var m=fetch(${JSON.stringify(ME_PATH)},{credentials:'omit',headers:h});m.catch(function(){});` +
        `window[${JSON.stringify(SENT_ME)}]=m})();\n` +
        // The time zone every API call sends (src/http.ts): Chromium's first Intl date lookup loads
        // its zone data, ~70 ms; done here, it fills the wait for the entry's download rather than
        // blocking the first render's requests.
        `try{Intl.DateTimeFormat().resolvedOptions()}catch(e){}\n`;
      const ref = this.emitFile({ type: 'asset', name: 'first-load.js', source });
      const tag = `<script async src="/${this.getFileName(ref)}"></script>`;
      const page = String(html.source).replace(/(\s*)(<script type="module")/, `$1${tag}$1$2`);
      if (!page.includes(tag)) throw new Error('route-preload: no entry script in index.html');
      // Rolldown's bundle takes a changed asset as a new file, not as an edit of the old one.
      delete bundle['index.html'];
      this.emitFile({ type: 'asset', fileName: 'index.html', source: page });
    },
  };
}

/** These chunks and every chunk they import statically. */
function closure(bundle: Rollup.OutputBundle, files: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const output = bundle[file];
    if (output?.type === 'chunk') output.imports.forEach(visit);
  };
  files.forEach(visit);
  return seen;
}
