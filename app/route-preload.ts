import type { Plugin, Rollup } from 'vite';

import { holdEarlyInput } from './early-input.ts';
import {
  FIRST_LOAD_PATHS,
  firstPage,
  ME_PATH,
  PRERENDERED,
  SCREEN_ATTRIBUTE,
  SENT_ME,
  TAGLINE_SHOWN_WHOLE,
} from './first-load.ts';

/**
 * The build's `first-load-[hash].js`, loaded from index.html's head before the body: it picks which
 * prerendered screen the page shows (app/first-load.ts's PRERENDERED, by path and stored session),
 * so that the first paint is already the right one, shows it once the HTML is parsed (whole), and
 * holds the input on it until the app is live (app/early-input.ts); it adds a modulepreload for each
 * chunk of the page the visitor's path shows (app/first-load.ts), so those download beside the
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
      // The entry and its preloads leave the HTML for this script, which adds them once a prerendered
      // screen has been painted: that paint waits on the stylesheet alone, not sharing the network
      // with the app's code (which only takes the screen over), and so does Lighthouse's estimate of it.
      let page = String(html.source);
      const entryTag = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
      const entryFile = entryTag.exec(page)?.[1];
      if (!entryFile) throw new Error('route-preload: no entry script in index.html');
      const preloads: string[] = [];
      page = page
        .replace(entryTag, '')
        .replace(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g, (_, href: string) => {
          preloads.push(href);
          return '';
        });
      const source =
        `(function(){var t=null;try{t=localStorage.getItem('authToken')}catch(e){}` +
        // Blocking, but small and beside the stylesheet: the screen is chosen before the first paint.
        `var s=(${JSON.stringify(PRERENDERED)}[location.pathname]||[])[t?1:0];` +
        `if(s==='out')try{if(${TAGLINE_SHOWN_WHOLE})s=null}catch(e){s=null}` +
        // Shown once the HTML is parsed, not before: the browser paints what it has parsed (the HTML
        // arriving slowly, or its parser pausing on a busy phone), and a part of the screen lays out
        // otherwise than the whole (the empty chat's greeting at the foot of a shell that has no
        // composer yet), then moves. readyState turns 'interactive' as the parse ends, in the same
        // task, so the first paint after it is the whole screen (one before it is the empty root).
        `if(s){var v=function(){document.documentElement.setAttribute(${JSON.stringify(SCREEN_ATTRIBUTE)},s)};` +
        `if(document.readyState==='loading')document.addEventListener('readystatechange',v,{once:true});else v();` +
        // Clicks, Enters and text on the screen are held until the app can do them (early-input.ts).
        `(${String(holdEarlyInput)})()}` +
        `var p=${JSON.stringify(pages)},r=${JSON.stringify(routes)}` +
        `[location.pathname.replace(/(.)\\/+$/,'$1')];` +
        `function a(f,m){var l=document.createElement(m?'script':'link');` +
        `if(m){l.type='module';l.src=f}else{l.rel='modulepreload';l.href=f}` +
        `l.crossOrigin='';document.head.appendChild(l)}` +
        `var d=0;function go(){if(d)return;d=1;${JSON.stringify(preloads)}` +
        `.concat(r?p[r[t?1:0]]:[]).forEach(function(f){a(f)});a(${JSON.stringify(entryFile)},1)}` +
        // Once the document is parsed (as the module script was); after the first paint when a
        // prerendered screen shows, unless the tab is hidden (no frames: it would wait for the reader).
        `function go2(){if(s&&!document.hidden)requestAnimationFrame(function(){setTimeout(go)});else go()}` +
        `if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',go2);else go2();` +
        // Signed in, the session's first GET /me goes now, as src/http.ts would send it (the token,
        // the time zone), rather than once the entry has downloaded and run; app/early-me.ts's
        // withSentMe hands its answer to the HTTP layer.
        `if(!r||!t||typeof fetch!=='function')return;var h={accept:'application/json',authorization:'Bearer '+t};` +
        `try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z)h['x-timezone']=z}catch(e){}` +
        `var m=fetch(${JSON.stringify(ME_PATH)},{credentials:'omit',headers:h});m.catch(function(){});` +
        `window[${JSON.stringify(SENT_ME)}]=m})();\n` +
        // The time zone every API call sends (src/http.ts): Chromium's first Intl date lookup loads
        // its zone data, ~70 ms; done here, it fills the wait for the entry's download rather than
        // blocking the first render's requests.
        `try{Intl.DateTimeFormat().resolvedOptions()}catch(e){}\n`;
      const ref = this.emitFile({ type: 'asset', name: 'first-load.js', source });
      const tag = `<script src="/${this.getFileName(ref)}"></script>`;
      page = page.replace(/(\s*)(<\/title>)/, `$1$2$1${tag}`);
      if (!page.includes(tag)) throw new Error('route-preload: no title in index.html');
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
