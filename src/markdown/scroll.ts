import { useEffect, useState } from 'react';

/**
 * For an element that scrolls sideways (a wide table, code line or formula): a callback ref to
 * attach it with, and a `tabIndex` of 0 only while its content overflows. An element that scrolls must be reachable by
 * keyboard, so it can be scrolled; one that does not should not add a tab stop.
 */
export function useScrollable<T extends HTMLElement>() {
  const [element, setElement] = useState<T | null>(null);
  const [scrollable, setScrollable] = useState(false);
  useEffect(() => {
    if (!element || typeof ResizeObserver === 'undefined') return;
    const check = () => setScrollable(element.scrollWidth > element.clientWidth);
    // The element resizes with the page; its first child grows with streamed content.
    const observer = new ResizeObserver(check);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    // Web fonts (KaTeX's) change widths without resizing anything observed.
    document.fonts?.ready.then(check, () => undefined);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, scrollable ? 0 : undefined] as const;
}
