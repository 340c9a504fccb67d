import { useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { VisuallyHidden } from '../ui/visually-hidden';
import { taglineMachine, typedText } from './tagline.machine';

export type TaglineProps = {
  /** The line to type. */
  text: string;
  /** Show it whole at once. @default the reader's `prefers-reduced-motion` */
  reducedMotion?: boolean | undefined;
};

/** The sign-in screen's tagline, typed out (screen readers get the whole line at once). */
export function Tagline({ text, reducedMotion }: TaglineProps) {
  const [reduce] = useState(() => reducedMotion ?? prefersReducedMotion());
  const actorRef = useActorRef(taglineMachine, { input: { text, reducedMotion: reduce } });
  const typed = useSelector(actorRef, (snapshot) => typedText(snapshot.context));
  const typing = useSelector(actorRef, (snapshot) => snapshot.matches('typing'));

  return (
    <p data-slot="tagline" className="ay:min-h-[1.5em] ay:text-sm ay:text-muted-foreground">
      <span aria-hidden="true">
        {typed}
        {typing && <span className="ay:ml-px ay:inline-block ay:w-px ay:animate-pulse">|</span>}
      </span>
      <VisuallyHidden>{text}</VisuallyHidden>
    </p>
  );
}

function prefersReducedMotion(): boolean {
  return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}
