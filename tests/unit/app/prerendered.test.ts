// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';

import { takePrerendered } from '../../../app/first-load';

/** index.html's body as the build leaves it: the empty root, then both prerendered screens. */
function page(screen: string | null) {
  document.body.innerHTML =
    '<div id="root"></div><div data-prerendered="out"><p>sign in</p></div>' +
    '<div data-prerendered="in"><p>shell</p></div>';
  if (screen) document.documentElement.setAttribute('data-screen', screen);
  return document.getElementById('root')!;
}

afterEach(() => document.documentElement.removeAttribute('data-screen'));

describe('takePrerendered', () => {
  it.each(['in', 'out'])('makes the chosen screen (%s) the root and drops the rest', (screen) => {
    const taken = takePrerendered(page(screen));
    expect(taken?.id).toBe('root');
    expect(taken?.hasAttribute('data-prerendered')).toBe(false);
    expect(taken?.textContent).toBe(screen === 'in' ? 'shell' : 'sign in');
    expect(document.body.children).toHaveLength(1);
    expect(document.documentElement.hasAttribute('data-screen')).toBe(false);
  });

  it('leaves the empty root alone for a visit without a prerendered screen', () => {
    const root = page(null);
    expect(takePrerendered(root)).toBeNull();
    expect([...document.body.children]).toEqual([root]);
  });
});
