import type { Subject } from '../lib/limits';
import { createIcon, type IconProps } from './icons';

/** Mathematics: the four operations. */
export const MathIcon = createIcon(
  'MathIcon',
  <>
    <path d="M4 7h6M7 4v6" />
    <path d="M14 7h6" />
    <path d="m4.5 15.5 5 5M9.5 15.5l-5 5" />
    <path d="M14 16h6M14 20h6" />
  </>,
);

/** Science: a flask. */
export const ScienceIcon = createIcon(
  'ScienceIcon',
  <>
    <path d="M9 3h6M10 3v6.5L4.6 18.2A1.8 1.8 0 0 0 6.1 21h11.8a1.8 1.8 0 0 0 1.5-2.8L14 9.5V3" />
    <path d="M7.5 15h9" />
  </>,
);

/** History: a columned building. */
export const HistoryIcon = createIcon(
  'HistoryIcon',
  <>
    <path d="M3 9 12 4l9 5" />
    <path d="M5 9v9M9.7 9v9M14.3 9v9M19 9v9" />
    <path d="M3 21h18M4 18h16" />
  </>,
);

/** English: an open book with a line of text. */
export const EnglishIcon = createIcon(
  'EnglishIcon',
  <>
    <path d="M2 5h6a4 4 0 0 1 4 4v11a3 3 0 0 0-3-3H2z" />
    <path d="M22 5h-6a4 4 0 0 0-4 4v11a3 3 0 0 1 3-3h7z" />
    <path d="M5 9h3M16 9h3M16 12.5h3" />
  </>,
);

const BY_SUBJECT: Record<Subject, typeof MathIcon> = {
  math: MathIcon,
  science: ScienceIcon,
  history: HistoryIcon,
  english: EnglishIcon,
};

export type SubjectIconProps = IconProps & {
  /** One of the goal subjects (math, science, history, english); others show the English book. */
  subject?: Subject | (string & {}) | undefined;
};

/** The icon of a subject, for onboarding, goals and suggestions. Decorative: label the control. */
export function SubjectIcon({ subject, ...props }: SubjectIconProps) {
  const Icon = BY_SUBJECT[subject as Subject] ?? EnglishIcon;
  return <Icon data-subject={subject} {...props} />;
}
