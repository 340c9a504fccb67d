/**
 * The sign-in tagline as a reader sees it: the part typed so far and, while it is typing, the caret
 * at its end ("Co|"). The whole line beside it, unseen, only keeps its place.
 */
export function typedTagline(container: ParentNode): string {
  const typed = container.querySelector<HTMLElement>('[data-slot="tagline-typed"]');
  if (!typed) return '';
  return `${typed.textContent ?? ''}${typed.hasAttribute('data-caret') ? '|' : ''}`;
}
