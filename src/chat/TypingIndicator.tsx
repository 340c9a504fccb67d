import { VisuallyHidden } from '../ui/visually-hidden';

/**
 * The three dots shown while a reply is awaited, with what the tutor is doing meanwhile when the
 * server says ('Checking the maths…').
 */
export function TypingIndicator({ activity }: { activity?: string }) {
  return (
    <span
      data-slot="typing-indicator"
      className="ay:inline-flex ay:h-6 ay:items-center ay:gap-2 ay:text-sm ay:text-muted-foreground"
    >
      <Dots />
      {activity ? (
        <ReplyActivity text={activity} />
      ) : (
        <VisuallyHidden>Ayah is typing…</VisuallyHidden>
      )}
    </span>
  );
}

/** Three dots bouncing in turn; where the reader prefers reduced motion, fading in turn in place. */
export function Dots() {
  return (
    <span aria-hidden="true" className="ay:inline-flex ay:items-center ay:gap-1">
      {[0, 160, 320].map((delay) => (
        <span
          key={delay}
          className="ay:size-2 ay:rounded-full ay:bg-muted-foreground ay:motion-safe:animate-bounce-dot ay:motion-reduce:animate-pulse"
          style={{ animationDelay: `${delay}ms` }}
        />
      ))}
    </span>
  );
}

/** What the tutor is doing, spoken politely once (the log itself is silent while a reply streams). */
export function ReplyActivity({ text }: { text: string }) {
  return (
    <span data-slot="reply-activity" role="status">
      {text}
    </span>
  );
}
