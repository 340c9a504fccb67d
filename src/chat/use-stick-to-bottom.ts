import {
  type UIEvent,
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
  type WheelEvent,
} from 'react';

/** How close to the end counts as "at the end", in px: rounding leaves a pixel or two. */
const AT_END = 4;

/**
 * Auto-scroll for a growing conversation. The view follows new content while the reader is at the
 * end; scrolling up lets go at once, and nothing pulls the view back until the reader returns to the
 * end (by scrolling or with `scrollToEnd`). `following` is false while let go: show a "jump to latest"
 * button then.
 *
 * The view is pinned from a ResizeObserver on the content and the scroller: it reports once a frame,
 * after layout and before paint, so a growing reply never flickers above the fold, and reading
 * `scrollHeight` there costs nothing. Pinning on every chunk instead would force a layout per chunk,
 * several a frame while a reply streams fast. Where there is no ResizeObserver, `version` (changing
 * whenever the content may have grown) pins it.
 */
export function useStickToBottom(version: unknown) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const followingRef = useRef(true);
  const lastTop = useRef(0);
  const [following, setFollowing] = useState(true);

  const pin = useCallback(() => {
    const el = scrollRef.current;
    if (!el || !followingRef.current) return;
    el.scrollTop = el.scrollHeight;
    lastTop.current = el.scrollTop;
  }, []);

  const scrollToEnd = useCallback(() => {
    followingRef.current = true;
    setFollowing(true);
    pin();
  }, [pin]);

  const observed = typeof ResizeObserver !== 'undefined';
  useLayoutEffect(() => {
    if (!observed) pin();
  }, [observed, pin, version]);

  // A layout effect, so the first report (the conversation as it opens) comes before its first paint.
  useLayoutEffect(() => {
    const content = contentRef.current;
    const scroller = scrollRef.current;
    if (!content || !scroller || !observed) return;
    const observer = new ResizeObserver(pin);
    observer.observe(content);
    // A taller composer makes the view shorter: the end stays in sight.
    observer.observe(scroller);
    return () => observer.disconnect();
  }, [observed, pin]);

  const onScroll = useCallback((event: UIEvent<HTMLElement>) => {
    const el = event.currentTarget;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    // Only the reader moves the view up: our own scrolls always go down to the end.
    if (distance <= AT_END) followingRef.current = true;
    else if (el.scrollTop < lastTop.current) followingRef.current = false;
    lastTop.current = el.scrollTop;
    setFollowing(followingRef.current);
  }, []);

  // A wheel or swipe upwards lets go before the scroll lands, so the next chunk cannot undo it.
  const onWheel = useCallback((event: WheelEvent<HTMLElement>) => {
    const el = event.currentTarget;
    const scrollable = el.scrollHeight > el.clientHeight;
    if (event.deltaY < 0 && scrollable && followingRef.current) {
      followingRef.current = false;
      setFollowing(false);
    }
  }, []);

  return { scrollRef, contentRef, following, scrollToEnd, onScroll, onWheel };
}
