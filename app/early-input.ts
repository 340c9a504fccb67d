/**
 * Input on a prerendered screen before the app has taken it over (app/first-load.ts): on slow 4G the
 * screen shows for seconds before React hydrates it, and React replays nothing for a root that was
 * not yet hydrating when the click came. The HTML's first-load script (app/route-preload.ts) runs
 * `holdEarlyInput`, which holds each click, Enter and text typed on the screen; once the session knows
 * who is there and the screen is the app's (app-tree.tsx), `replayEarlyInput` does them again, in order,
 * on the app's own controls. Input that comes while the replay is going is held behind what it replays
 * (an Enter pressed then is not done before the text typed before it), and the page is live only when
 * nothing is left to replay.
 */

/** What the first-load script holds: a click, an Enter in a field, or the text of a field. */
export type HeldInput =
  | { kind: 'click'; target: Element }
  | { kind: 'enter'; target: Element }
  | { kind: 'text'; target: Element; value: string };

/** The global the first-load script keeps its held input in, until the app is live. */
export const EARLY_INPUT = '__ayahEarlyInput';

interface EarlyInput {
  live: boolean;
  /** `replayEarlyInput` is doing the held input again: new input is still held, behind it. */
  replaying?: boolean;
  held: HeldInput[];
}

/**
 * Run by the first-load script, before the first paint, when a prerendered screen shows: holds input
 * on it until `replayEarlyInput`. Self-contained (the build writes its source into that script).
 */
export function holdEarlyInput() {
  const early: EarlyInput = { live: false, held: [] };
  (window as unknown as Record<string, EarlyInput>)['__ayahEarlyInput'] = early;
  const onScreen = (node: EventTarget | null): Element | null =>
    node instanceof Element && node.closest('[data-prerendered],#root') ? node : null;
  const hold = (event: Event, input: HeldInput) => {
    // Not the browser's (a form's submission, a link's navigation), not a hydrated preview's.
    event.preventDefault();
    event.stopImmediatePropagation();
    early.held.push(input);
  };
  const field = (node: EventTarget | null) =>
    node instanceof HTMLTextAreaElement || node instanceof HTMLInputElement ? onScreen(node) : null;
  document.addEventListener(
    'click',
    (event) => {
      if (early.live || !event.isTrusted || !(event.target instanceof Element)) return;
      const target = onScreen(event.target.closest('button,a[href],[role="button"],summary'));
      if (target) hold(event, { kind: 'click', target });
    },
    true,
  );
  document.addEventListener(
    'keydown',
    (event) => {
      if (early.live || !event.isTrusted || event.key !== 'Enter') return;
      if (event.shiftKey || event.isComposing) return;
      const target = field(event.target);
      if (target) hold(event, { kind: 'enter', target });
    },
    true,
  );
  document.addEventListener(
    'input',
    (event) => {
      // The replay's own typing is not the student's (and not held again).
      const target = early.live || !event.isTrusted ? null : field(event.target);
      if (!target) return;
      const value = (target as HTMLInputElement).value;
      const last = early.held[early.held.length - 1];
      if (last?.kind === 'text' && last.target === target) last.value = value;
      else early.held.push({ kind: 'text', target, value });
    },
    true,
  );
  document.addEventListener(
    'submit',
    (event) => {
      // A form the replay submits (its click on a submit button) is the app's to handle.
      if (!early.live && !early.replaying && onScreen(event.target)) event.preventDefault();
    },
    true,
  );
}

/** The first-load script's held input, if a prerendered screen showed and the page is not yet live. */
function earlyInput(): EarlyInput | null {
  const early = (globalThis as unknown as Record<string, EarlyInput | undefined>)[EARLY_INPUT];
  return early && !early.live ? early : null;
}

/** Lets the held input go unreplayed (the app could not show the screen it was meant for). */
export function dropEarlyInput() {
  const early = earlyInput();
  if (!early) return;
  early.live = true;
  early.held = [];
}

/** How a control is known again when the app has rendered it anew: its tag and accessible name. */
function nameOf(node: Element): string {
  return (node.getAttribute('aria-label') ?? node.textContent ?? '').trim();
}

/** The control in the live page that `target` (held on the prerendered screen) is. */
function find(target: Element, root: ParentNode): HTMLElement | null {
  if (target.isConnected) return target as HTMLElement;
  const name = nameOf(target);
  for (const node of root.querySelectorAll<HTMLElement>(target.tagName)) {
    if (nameOf(node) === name) return node;
  }
  return null;
}

/**
 * Puts `value` in a field as typing would, so that React's onChange sees it: a hydrated field already
 * shows the text React's state does not have, so its tracked value is cleared first.
 */
function type(input: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto = Object.getPrototypeOf(input) as HTMLInputElement;
  const setValue = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  input.value = '';
  setValue?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** After the frame React renders the last replayed input in. */
const nextFrame = () =>
  new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)));

/**
 * Does the held input again on the live page, in order: the text typed, then the clicks and Enters,
 * each after React has rendered the one before. A control the live page does not have is skipped.
 * Input that comes meanwhile is held too and done after (in a frame's wait the student's Enter would
 * otherwise reach the chat before the text it sends); the page is live once none is left.
 */
export async function replayEarlyInput(root: ParentNode = document) {
  const early = earlyInput();
  if (!early || early.replaying) return;
  early.replaying = true;
  try {
    for (;;) {
      // Nothing left: live from here, with no frame between the last look and the switch.
      if (early.held.length === 0 || early.live) break;
      const input = early.held.shift()!;
      await nextFrame();
      await replay(input, root);
    }
  } finally {
    early.live = true;
    early.replaying = false;
    early.held = [];
  }
}

/** A field the app shows but takes no input in yet: the chat's composer while a conversation loads. */
const busy = (node: HTMLElement) =>
  (node as HTMLTextAreaElement).readOnly === true || node.getAttribute('aria-disabled') === 'true';

/** How long a held Enter waits for its field to take input (then it is dropped; its text stays). */
const READY_WAIT_MS = 15_000;

/** The live control `target` is, once it takes input (a frame at a time); null if it never does. */
async function ready(target: Element, root: ParentNode): Promise<HTMLElement | null> {
  const until = Date.now() + READY_WAIT_MS;
  for (;;) {
    const node = find(target, root);
    if (!node || !busy(node)) return node;
    if (Date.now() > until) return null;
    await nextFrame();
  }
}

async function replay(input: HeldInput, root: ParentNode) {
  // An Enter sends what the field holds: a chat reopening the last conversation takes it once loaded.
  const target =
    input.kind === 'enter' ? await ready(input.target, root) : find(input.target, root);
  if (!target) return;
  if (input.kind === 'text') {
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)
      type(target, input.value);
  } else if (input.kind === 'enter') {
    target.focus();
    target.dispatchEvent(
      new KeyboardEvent('keydown', {
        key: 'Enter',
        code: 'Enter',
        bubbles: true,
        cancelable: true,
      }),
    );
  } else if (!(target as HTMLButtonElement).disabled) {
    target.click();
  }
}
