import '@testing-library/jest-dom/vitest';

import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';

// jsdom lacks these: react-hot-toast and the tagline ask matchMedia about reduced motion, and
// Radix's popper and dialogs reach for the rest.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};

// A worker's files share one jsdom window (isolate: false, vitest.config.ts): each file starts with
// the storage a fresh page has. A file that left a session value behind (the chat's, the tagline's)
// failed OAuthCallback's check that its one-time value is all gone (1 clean-clone CI run of 4).
beforeAll(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => cleanup());
