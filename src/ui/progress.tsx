import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';

import { cn } from '../lib/cn';
import { clampPercent, progressTone } from '../lib/progress';

export const progressVariants = cva(
  'ay:relative ay:w-full ay:overflow-hidden ay:rounded-full ay:bg-progress-track',
  {
    variants: {
      size: {
        sm: 'ay:h-1.5',
        md: 'ay:h-2.5',
        lg: 'ay:h-4',
      },
    },
    defaultVariants: { size: 'md' },
  },
);

/**
 * The filled part, coloured by `progressTone()`: red under 25 %, yellow under 75 %, else green. It
 * grows smoothly to a new value, or at once where the reader prefers reduced motion.
 */
export const progressIndicatorVariants = cva(
  'ay:h-full ay:rounded-full ay:motion-safe:transition-[width]',
  {
    variants: {
      tone: {
        low: 'ay:bg-progress-low',
        mid: 'ay:bg-progress-mid',
        high: 'ay:bg-progress-high',
      },
    },
  },
);

export interface ProgressProps
  extends
    Omit<ComponentProps<'div'>, 'children' | 'aria-label'>,
    VariantProps<typeof progressVariants> {
  /** Progress in percent; clamped to 0–100. */
  value: number;
  /** What is progressing, e.g. 'Math: problems solved'. A progress bar must have a name. */
  'aria-label': string;
}

/** A progress bar (role="progressbar", 0–100) in the spec's colour bands. */
export function Progress({ value, size, className, ...props }: ProgressProps) {
  const percent = clampPercent(value);
  const tone = progressTone(percent);

  return (
    <div
      data-slot="progress"
      data-tone={tone}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(percent)}
      className={cn(progressVariants({ size }), className)}
      {...props}
    >
      <div
        data-slot="progress-indicator"
        className={progressIndicatorVariants({ tone })}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
