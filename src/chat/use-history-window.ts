import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/** Messages rendered when a conversation opens: the last ones, a screen's worth and more. */
export const OPEN_MESSAGES = 4;
/** Older messages mounted at a time: about two replies, short enough for a slow CPU. */
export const EARLIER_PAGE = 4;

/**
 * Opening a long conversation costs what the screen shows, not what the history holds: only the
 * last {@link OPEN_MESSAGES} messages render at first, and older ones mount a page at a time as the
 * reader nears the top (watched by an IntersectionObserver on `sentinel`, a screen ahead) or asks
 * with the button. What is on screen stays where it was as they mount above it. Mounted messages
 * stay mounted, so find-in-page and a screen reader reach everything rendered so far.
 *
 * `first` is the oldest message rendered; `liveFrom` the first one that was there when the
 * conversation opened (the ones before it were history, not news, and belong outside the live log).
 */
export function useHistoryWindow(count: number, scrollRef: RefObject<HTMLElement | null>) {
  const [opened] = useState(() => Math.max(0, count - OPEN_MESSAGES));
  const [first, setFirst] = useState(opened);
  const [sentinel, setSentinel] = useState<HTMLElement | null>(null);
  const before = useRef<{ height: number; top: number } | null>(null);

  const showEarlier = useCallback(() => {
    const scroller = scrollRef.current;
    before.current = scroller && { height: scroller.scrollHeight, top: scroller.scrollTop };
    // Synchronously, so nothing scrolls between the reading above and the commit.
    flushSync(() => setFirst((index) => Math.max(0, index - EARLIER_PAGE)));
  }, [scrollRef]);

  // Before paint: move the view down by what mounted above it. A browser with scroll anchoring
  // has done so already (the view moved), and is left alone.
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    const previous = before.current;
    before.current = null;
    if (!scroller || !previous || Math.abs(scroller.scrollTop - previous.top) >= 1) return;
    scroller.scrollTop = previous.top + scroller.scrollHeight - previous.height;
  }, [first, scrollRef]);

  // Observed again after each page: a page that did not fill the screen reports at once.
  useEffect(() => {
    const root = scrollRef.current;
    if (!sentinel || !root || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) showEarlier();
      },
      { root, rootMargin: '100% 0px 0px 0px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [sentinel, first, scrollRef, showEarlier]);

  // Messages only shrink by a failed turn at the end; the window never starts past what is left.
  const start = Math.min(first, Math.max(0, count - OPEN_MESSAGES));
  return {
    first: start,
    liveFrom: Math.max(start, Math.min(opened, count)),
    sentinelRef: setSentinel,
    showEarlier,
  };
}
