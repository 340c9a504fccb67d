/**
 * After a browser test file's last test, its page is emptied. The browser stays open until the whole
 * run ends, and a page left showing an endless animation (a spinner, a pulse, the typing dots) had
 * Chromium's compositor draw it 60 times a second: 0.8 of a core for the rest of the run, on a 2-core
 * machine whose node and e2e tests run after the browser ones (the suite took 33 minutes, not 10).
 */
import { afterAll } from 'vitest';

afterAll(() => {
  document.body.replaceChildren();
});
