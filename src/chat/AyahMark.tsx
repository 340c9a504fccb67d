import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

export interface AyahMarkProps extends ComponentProps<'span'> {
  /** `sm` is the avatar beside a reply, `lg` the logo of the empty chat. @default 'sm' */
  size?: 'sm' | 'lg';
}

/** Ayah's mark: the logo of the empty chat and the avatar beside each reply. Decorative. */
export function AyahMark({ size = 'sm', className, ...props }: AyahMarkProps) {
  return (
    <span
      data-slot="ayah-mark"
      aria-hidden="true"
      className={cn(
        'ay:inline-flex ay:shrink-0 ay:items-center ay:justify-center ay:rounded-full',
        'ay:bg-primary ay:text-primary-foreground',
        size === 'lg' ? 'ay:size-14' : 'ay:size-8',
        className,
      )}
      {...props}
    >
      <svg
        viewBox="0 0 24 24"
        focusable="false"
        className={cn(
          'ay:fill-none ay:stroke-current ay:stroke-2',
          size === 'lg' ? 'ay:size-8' : 'ay:size-4',
        )}
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        {/* An open book with a spark: learning, with a coach. */}
        <path d="M12 7v14M3 18a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h5a4 4 0 0 1 4 4 4 4 0 0 1 4-4h5a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1h-6a3 3 0 0 0-3 3 3 3 0 0 0-3-3z" />
      </svg>
    </span>
  );
}
