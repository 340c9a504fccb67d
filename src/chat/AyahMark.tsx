import type { ComponentProps } from 'react';

import { cn } from '../lib/cn';
import { AyahLogo } from '../ui/logo';

export interface AyahMarkProps extends ComponentProps<'svg'> {
  /** `sm` is the avatar beside a reply, `lg` the logo of the empty chat. @default 'sm' */
  size?: 'sm' | 'lg';
}

/** Ayah's logo as the chat shows it: above the empty chat and beside each reply. Decorative. */
export function AyahMark({ size = 'sm', className, ...props }: AyahMarkProps) {
  return (
    <AyahLogo
      data-slot="ayah-mark"
      className={cn(size === 'lg' ? 'ay:size-14' : 'ay:size-8', className)}
      {...props}
    />
  );
}
