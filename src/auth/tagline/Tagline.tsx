import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';

import { VisuallyHidden } from '../../ui/visually-hidden';
import { taglineMachine, typedText } from './tagline.machine';
import { isTyped, isTyping } from './tagline.selectors';

export type TaglineProps = {
  /** The line to type. */
  text: string;
  /** Show it whole at once. @default the reader's `prefers-reduced-motion` */
  reducedMotion?: boolean | undefined;
};

/** Session-storage key: the tagline was typed out once in this tab, so it now shows whole. */
export const TAGLINE_TYPED_KEY = 'ayah:tagline-typed';

/**
 * The sign-in screen's tagline, typed out once per visit (screen readers get the whole line at once);
 * switching views or coming back to the screen in the same tab shows it whole.
 */
export function Tagline({ text, reducedMotion }: TaglineProps) {
  const [reduce] = useState(() => typedThisVisit() || (reducedMotion ?? prefersReducedMotion()));
  const actorRef = useActorRef(taglineMachine, { input: { text, reducedMotion: reduce } });
  const typed = useSelector(actorRef, (snapshot) => typedText(snapshot.context));
  const typing = useSelector(actorRef, isTyping);
  const done = useSelector(actorRef, isTyped);
  useEffect(() => {
    if (done && !reduce) rememberTyped();
  }, [done, reduce]);

  // The whole line, unseen, keeps the place the line ends up in; the typed part is written over it
  // from its start, so no letter already there moves as the next comes (a centred line that grew
  // would move them all: a layout shift every 80 ms). The caret is the typed part's own edge.
  return (
    <p data-slot="tagline" className="ay:min-h-[1.5em] ay:text-sm ay:text-muted-foreground">
      <span aria-hidden="true" className="ay:relative ay:inline-block">
        <span className="ay:invisible">{text}</span>
        <span className="ay:absolute ay:inset-0 ay:text-start">
          <span
            data-slot="tagline-typed"
            data-caret={typing || undefined}
            className={typing ? 'ay:border-r ay:border-current ay:pr-px' : undefined}
          >
            {typed}
          </span>
        </span>
      </span>
      <VisuallyHidden>{text}</VisuallyHidden>
    </p>
  );
}

function prefersReducedMotion(): boolean {
  return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

function typedThisVisit(): boolean {
  try {
    return globalThis.sessionStorage?.getItem(TAGLINE_TYPED_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberTyped(): void {
  try {
    globalThis.sessionStorage?.setItem(TAGLINE_TYPED_KEY, '1');
  } catch {
    // Storage refused (sandboxed frame): the tagline simply types again next time.
  }
}
