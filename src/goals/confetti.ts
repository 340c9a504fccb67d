/**
 * The confetti of a milestone, loaded on the first celebration only (a dynamic import), so the goals
 * entry stays small for every student who never reaches one.
 *
 * canvas-confetti's default cannon draws in a Web Worker built from a `blob:` URL, which a page
 * whose CSP says `script-src 'self'` (the app's, and most school portals') refuses: a console error
 * on every celebration and a blank canvas. Ours draws on the main thread (a few hundred particles for
 * a second or two), so it plays under any CSP.
 */
import type { CreateTypes } from 'canvas-confetti';

let cannon: Promise<CreateTypes> | null = null;

function mainThreadCannon(): Promise<CreateTypes> {
  cannon ??= import('canvas-confetti').then(({ default: confetti }) =>
    confetti.create(undefined, {
      useWorker: false,
      resize: true,
      // Belt and braces: the component already skips confetti under reduced motion.
      disableForReducedMotion: true,
    }),
  );
  return cannon;
}

export async function fireConfetti(milestone: number): Promise<void> {
  const fire = await mainThreadCannon();
  const big = milestone >= 100;
  await fire({
    particleCount: big ? 160 : 60 + milestone,
    spread: big ? 100 : 70,
    startVelocity: big ? 45 : 35,
    origin: { y: 0.6 },
    disableForReducedMotion: true,
    zIndex: 1000,
  });
}
