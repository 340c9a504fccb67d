import { type ClassValue, clsx } from 'clsx';
import { extendTailwindMerge } from 'tailwind-merge';

// Our utilities carry the `ay:` prefix, so tailwind-merge must know it to resolve conflicts.
const twMerge = extendTailwindMerge({ prefix: 'ay' });

/** Joins class names and lets a later Tailwind utility override an earlier one (`ay:p-2` vs `ay:p-4`). */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
