/**
 * The pages the LTI flow shows inside a platform's frame: plain HTML with one script from 'self'
 * (`/api/v1/lti/page.js`, below) that reads what to do from a JSON block in the page. No inline
 * script: the pages keep `script-src 'self'`. Each page names who may frame it.
 */
import type { ServerResponse } from 'node:http';

import { ACCOUNT_SWITCH_MESSAGES } from 'ayah-coach/rules';
import type { Context } from 'hono';

export const PAGE_SCRIPT_PATH = '/api/v1/lti/page.js';

/**
 * What a launch's page needs besides its code to ask before it replaces a session (issue 22 #1: a
 * link never replaces an existing session silently): the auth routes that tell who is signed in on
 * this browser (renewing an expired access token first) and sign the launch's new session out again
 * when the student stays, and the app's words for the question (src/auth/AccountSwitch.tsx).
 */
export const ACCOUNT_QUESTION = {
  me: '/api/v1/auth/me',
  refresh: '/api/v1/auth/refresh',
  logout: '/api/v1/auth/logout',
  heading: ACCOUNT_SWITCH_MESSAGES.heading,
  question: ACCOUNT_SWITCH_MESSAGES.question,
  current: ACCOUNT_SWITCH_MESSAGES.current,
  incoming: ACCOUNT_SWITCH_MESSAGES.incoming,
  keep: ACCOUNT_SWITCH_MESSAGES.keep('{name}'),
  switchTo: ACCOUNT_SWITCH_MESSAGES.switchTo('{name}'),
} as const;

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

/** JSON for a `<script type="application/json">` block: nothing in it can close the element. */
const jsonBlock = (data: unknown) =>
  JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

export interface PageOptions {
  /** Origins that may frame the page; none: `frame-ancestors 'none'`. */
  frameOrigins?: string[];
  /** Origins (besides 'self') the page's forms may post to. */
  formOrigins?: string[];
  status?: 200 | 400 | 401 | 403 | 404 | 409 | 429 | 502 | 503;
}

function policy(options: PageOptions): string {
  const ancestors = options.frameOrigins?.length ? options.frameOrigins.join(' ') : "'none'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    `form-action 'self'${options.formOrigins?.length ? ' ' + options.formOrigins.join(' ') : ''}`,
    "base-uri 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}

/**
 * Lets the answer be framed by `origins` only: its own CSP `frame-ancestors` (which the standing
 * `frame-ancestors 'none'` would otherwise keep), and no `X-Frame-Options: DENY` set before it.
 */
export function allowFraming(c: Context, csp: string) {
  const outgoing = (c.env as { outgoing?: Partial<ServerResponse> } | undefined)?.outgoing;
  if (outgoing?.removeHeader && !outgoing.headersSent) outgoing.removeHeader('X-Frame-Options');
  c.header('Content-Security-Policy', csp);
  c.header('X-Frame-Options', undefined);
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1f2937}
button{font:inherit;padding:.6rem 1rem;margin:.25rem .5rem .25rem 0;border-radius:.5rem;border:1px solid #4338ca;background:#4f46e5;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}`;

function page(c: Context, title: string, body: string, options: PageOptions, data?: unknown) {
  allowFraming(c, policy(options));
  c.header('Cache-Control', 'no-store');
  const script =
    data === undefined
      ? ''
      : `<script type="application/json" id="lti-data">${jsonBlock(data)}</script>` +
        `<script src="${PAGE_SCRIPT_PATH}"></script>`;
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
      `<body><main>${body}</main>${script}</body></html>`,
    options.status ?? 200,
  );
}

/** What went wrong, plainly: no stack, nothing of the token. */
export function errorPage(c: Context, reason: string, options: PageOptions) {
  return page(
    c,
    'Ayah could not open',
    `<h1>Ayah could not open</h1><p role="alert">${escapeHtml(reason)}</p>` +
      `<p>Open Ayah again from your course. If it keeps happening, tell your teacher.</p>`,
    options,
  );
}

/** A page that only runs the script (login through platform storage, the launch's hand-off). */
export function workingPage(c: Context, data: unknown, options: PageOptions) {
  return page(
    c,
    'Opening Ayah…',
    `<h1>Opening Ayah…</h1><p id="lti-status" role="status" aria-live="polite"></p>`,
    options,
    data,
  );
}

export const DEEP_LINK_CHOICES = [
  { view: 'chat', title: 'Ayah tutor', text: 'The AI tutor chat: hints, steps and questions.' },
  { view: 'goals', title: 'Weekly goals', text: "The student's weekly goals board (graded)." },
] as const;

/** The instructor's picker: one button per view, posting the request's one-time code. */
export function pickerPage(c: Context, code: string, options: PageOptions) {
  const buttons = DEEP_LINK_CHOICES.map(
    (choice) =>
      `<li><button type="submit" name="view" value="${choice.view}">${escapeHtml(choice.title)}</button>` +
      ` ${escapeHtml(choice.text)}</li>`,
  ).join('');
  return page(
    c,
    'Add Ayah to your course',
    `<h1>Add Ayah to your course</h1>` +
      `<form method="post" action="/api/v1/lti/deep-link" aria-labelledby="pick">` +
      `<p id="pick">Choose what students open from this link:</p>` +
      `<input type="hidden" name="code" value="${escapeHtml(code)}"><ul>${buttons}</ul></form>`,
    options,
  );
}

/** A form posted at once by the script (a button without it): a JWT to the platform. */
export function autoPostPage(
  c: Context,
  action: string,
  fields: Record<string, string>,
  options: PageOptions,
) {
  const inputs = Object.entries(fields)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('');
  return page(
    c,
    'Returning to your course…',
    `<h1>Returning to your course…</h1><form id="lti-form" method="post" action="${escapeHtml(action)}">` +
      `${inputs}<button type="submit">Continue</button></form>`,
    options,
    { mode: 'submit' },
  );
}

export function registeredPage(c: Context, name: string, options: PageOptions) {
  return page(
    c,
    'Ayah is registered',
    `<h1>Ayah is registered</h1><p role="status">${escapeHtml(name)} can now launch Ayah. ` +
      `You may close this window.</p>`,
    options,
    { mode: 'registered' },
  );
}

/**
 * The pages' one script. `login`: keep state and nonce in the platform's storage frame
 * (1EdTech "LTI Client Side postMessages": lti.capabilities, lti.put_data), then go on to the
 * platform's login. `launch`: read them back (lti.get_data) when the login kept them there, trade the
 * one-time code for the session, keep the tokens where the app reads them, open the view. Opened as
 * a page of its own (not framed by the course) where another student is signed in, it first asks
 * which account to use, showing both (`data.ask`, ACCOUNT_QUESTION); the other session stays until
 * the student chooses. Framed, the page's storage is the platform's own (partitioned): no one else's
 * session is there to replace.
 * `submit`: post the form. `registered`: tell the platform the registration is done.
 */
export const PAGE_SCRIPT = `(function () {
  'use strict';
  var block = document.getElementById('lti-data');
  if (!block) return;
  var data = JSON.parse(block.textContent);
  var status = document.getElementById('lti-status');
  function say(text) { if (status) status.textContent = text; }
  function fail(text) { say(text); var h = document.querySelector('h1'); if (h) h.textContent = 'Ayah could not open'; }
  var seq = 0;
  function ask(win, origin, message) {
    return new Promise(function (resolve, reject) {
      var id = 'ayah-' + Date.now() + '-' + (++seq);
      message.message_id = id;
      var timer = setTimeout(function () { window.removeEventListener('message', on); reject(new Error('timeout')); }, 5000);
      function on(event) {
        var m = event.data;
        if (!m || typeof m !== 'object' || m.message_id !== id) return;
        if (origin !== '*' && event.origin !== origin) return;
        clearTimeout(timer);
        window.removeEventListener('message', on);
        if (m.error) reject(new Error(m.error.message || m.error.code || 'refused')); else resolve(m);
      }
      window.addEventListener('message', on);
      win.postMessage(message, origin);
    });
  }
  function storageFrame(storage) {
    var parent = window.opener || window.parent;
    if (!storage.target || storage.target === '_parent') return Promise.resolve(parent);
    return ask(parent, '*', { subject: 'lti.capabilities' }).then(function (reply) {
      var list = reply.supported_messages || [];
      for (var i = 0; i < list.length; i++) {
        if (list[i].subject === 'lti.put_data' && list[i].frame) return parent.frames[list[i].frame] || parent;
      }
      return parent.frames[storage.target] || parent;
    }, function () { return parent.frames[storage.target] || parent; });
  }
  function put(win, storage, key, value) {
    return ask(win, storage.origin, { subject: 'lti.put_data', key: key, value: value });
  }
  function get(win, storage, key) {
    return ask(win, storage.origin, { subject: 'lti.get_data', key: key }).then(function (m) { return m.value; });
  }
  function topLevel() { try { return window.top === window.self; } catch (e) { return false; } }
  function stored(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }
  function json(url, token, body) {
    var headers = { 'content-type': 'application/json' };
    if (token) headers.authorization = 'Bearer ' + token;
    return fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
    });
  }
  // The account signed in on this browser (its access token renewed first if it has expired), or null.
  function signedIn(ask) {
    var token = stored('authToken');
    var refresh = stored('authRefreshToken');
    if (!token && !refresh) return Promise.resolve(null);
    function me(access) {
      return json(ask.me, access).then(function (res) {
        return res.ok ? res.json().then(function (b) { return b.user; }) : res.status;
      });
    }
    return (token ? me(token) : Promise.resolve(401)).then(function (user) {
      if (user !== 401 || !refresh) return typeof user === 'object' ? user : null;
      return json(ask.refresh, null, { refresh_token: refresh }).then(function (res) {
        if (!res.ok) return null;
        return res.json().then(function (renewed) {
          try {
            localStorage.setItem('authToken', renewed.access_token);
            localStorage.setItem('authRefreshToken', renewed.refresh_token);
          } catch (e) { return null; }
          return me(renewed.access_token).then(function (u) { return typeof u === 'object' ? u : null; });
        });
      });
    }).catch(function () { return null; });
  }
  function el(tag, text, attrs) {
    var node = document.createElement(tag);
    if (text) node.textContent = text;
    for (var name in attrs || {}) node.setAttribute(name, attrs[name]);
    return node;
  }
  function nameOf(user) { return (user.display_name || '').trim() || user.email; }
  // Another student is signed in: show both accounts and wait for the choice. Resolves with the
  // launch's session to keep it, or null to stay (the launch's session is signed out again).
  function choose(body, ask) {
    return signedIn(ask).then(function (current) {
      if (!current || !current.id || current.id === body.user.id) return body;
      return new Promise(function (resolve) {
        var main = document.querySelector('main');
        main.textContent = '';
        var section = el('section', '', { 'aria-labelledby': 'lti-switch' });
        section.appendChild(el('h1', ask.heading, { id: 'lti-switch' }));
        section.appendChild(el('p', ask.question));
        var list = el('dl');
        [[ask.current, current], [ask.incoming, body.user]].forEach(function (row) {
          var item = el('div');
          item.appendChild(el('dt', row[0]));
          item.appendChild(el('dd', row[1].display_name));
          if (row[1].email) item.appendChild(el('dd', row[1].email));
          list.appendChild(item);
        });
        section.appendChild(list);
        var stay = el('button', ask.keep.replace('{name}', nameOf(current)), { type: 'button' });
        var go = el('button', ask.switchTo.replace('{name}', nameOf(body.user)), { type: 'button' });
        section.appendChild(stay);
        section.appendChild(go);
        main.appendChild(section);
        stay.focus();
        stay.addEventListener('click', function () {
          stay.disabled = go.disabled = true;
          json(ask.logout, body.access_token, {}).then(function () { resolve(null); }, function () { resolve(null); });
        });
        go.addEventListener('click', function () { stay.disabled = go.disabled = true; resolve(body); });
      });
    });
  }
  if (data.mode === 'login') {
    var s = data.storage;
    storageFrame(s)
      .then(function (win) {
        return put(win, s, 'state_' + data.state, data.state).then(function () {
          return put(win, s, 'nonce_' + data.nonce, data.nonce);
        });
      })
      .then(function () { window.location.replace(data.next); },
        function () { fail('Your course page did not keep the sign-in details. Reload the page and try again.'); });
  } else if (data.mode === 'launch') {
    var st = data.storage;
    var proof = st
      ? storageFrame(st).then(function (win) {
          return get(win, st, 'state_' + st.state).then(function (state) {
            return get(win, st, 'nonce_' + st.nonce).then(function (nonce) { return { state: state, nonce: nonce }; });
          });
        })
      : Promise.resolve({});
    proof
      .then(function (p) {
        return fetch(data.session, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code: data.code, state: p.state, nonce: p.nonce }),
          credentials: 'omit',
        });
      })
      .then(function (res) {
        return res.json().then(function (body) {
          if (!res.ok) throw new Error(body && body.detail ? body.detail : 'The sign-in failed');
          return body;
        });
      })
      .then(function (body) { return topLevel() && data.ask ? choose(body, data.ask) : body; })
      .then(function (body) {
        if (!body) return window.location.replace(data.next);
        try {
          localStorage.setItem('authToken', body.access_token);
          localStorage.setItem('authRefreshToken', body.refresh_token);
        } catch (e) {
          throw new Error('This browser keeps no data for Ayah inside the course page. Open Ayah in a new tab.');
        }
        window.location.replace(data.next);
      })
      .catch(function (error) { fail(error && error.message ? error.message : 'The sign-in failed'); });
  } else if (data.mode === 'submit') {
    var form = document.getElementById('lti-form');
    if (form) form.submit();
  } else if (data.mode === 'registered') {
    (window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');
  }
})();
`;
