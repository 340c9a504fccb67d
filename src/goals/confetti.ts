/**
 * The confetti of a milestone, loaded on the first celebration only (a dynamic import), so the goals
 * entry stays small for every student who never reaches one.
 */
export async function fireConfetti(milestone: number): Promise<void> {
  const { default: confetti } = await import('canvas-confetti');
  const big = milestone >= 100;
  await confetti({
    particleCount: big ? 160 : 60 + milestone,
    spread: big ? 100 : 70,
    startVelocity: big ? 45 : 35,
    origin: { y: 0.6 },
    // Belt and braces: the component already skips confetti under reduced motion.
    disableForReducedMotion: true,
    zIndex: 1000,
  });
}
