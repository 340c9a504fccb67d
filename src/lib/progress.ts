import { GOALS } from './limits';

export type ProgressTone = 'low' | 'mid' | 'high';

/** A percentage clamped to 0–100 (progress is capped at 100 %); NaN counts as 0. */
export function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return value === Infinity ? GOALS.maxProgressPercent : 0;
  return Math.min(GOALS.maxProgressPercent, Math.max(0, value));
}

/** The progress bar's colour band: red under 25 %, yellow under 75 %, else green (spec section 9). */
export function progressTone(percent: number): ProgressTone {
  const p = clampPercent(percent);
  if (p < 25) return 'low';
  if (p < 75) return 'mid';
  return 'high';
}
