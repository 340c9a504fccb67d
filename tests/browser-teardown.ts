/**
 * After a browser test file, the page is hidden. The files of a worker share its page (`isolate:
 * false`), and the browser stays open until the whole run ends: a page left showing an endless
 * animation (a spinner, a pulse, the typing dots) had Chromium's compositor draw it 60 times a second,
 * 0.8 of a core for the rest of the run on a 2-core machine whose node and e2e tests run after the
 * browser ones (the suite took 33 minutes, not 10). Hidden, not emptied: the next file's first story
 * unmounts what the last one rendered, and React must find its nodes where it left them.
 */
import { afterAll, beforeAll } from 'vitest';

beforeAll(() => {
  document.body.hidden = false;
});

afterAll(() => {
  document.body.hidden = true;
});
