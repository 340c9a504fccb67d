import { createIcon } from './icons';

// Glyphs that more than one feature draws (kept out of the public `ayah-coach` icon set).
export const TargetIcon = createIcon(
  'TargetIcon',
  <>
    <circle cx="12" cy="12" r="10" />
    <circle cx="12" cy="12" r="6" />
    <circle cx="12" cy="12" r="2" />
  </>,
);
