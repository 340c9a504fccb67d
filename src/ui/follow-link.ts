import type { MouseEvent } from 'react';

/**
 * A link's click, handed to the host's router when it gave one (`onNavigate`): a plain click goes
 * through it, while a modified one (new tab, new window) or a link without a router stays the browser's.
 */
export function followLink(
  event: MouseEvent<HTMLAnchorElement>,
  onNavigate: ((href: string) => void) | undefined,
) {
  const modified = event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
  if (!onNavigate || modified || event.button !== 0 || event.defaultPrevented) return;
  event.preventDefault();
  onNavigate(event.currentTarget.getAttribute('href') ?? '');
}
