/**
 * Safety alerts (issue 24): what a student in a class is told, and the alert categories as teachers
 * read them. Wording of our own (the spec has no classes).
 */

/** Said once, in the privacy notice and in the safe answer, to a student in a class. */
export const TRUSTED_ADULT_NOTICE =
  'If you seem to be in danger, Ayah lets a trusted adult at your school know.';

export const ALERT_CATEGORIES = ['self_harm', 'unsafe', 'personal_data'] as const;
export type AlertCategory = (typeof ALERT_CATEGORIES)[number];

export const ALERT_CATEGORY_LABELS: Record<AlertCategory, string> = {
  self_harm: 'Self-harm',
  unsafe: 'Unsafe content',
  personal_data: 'Personal data shared',
};

export const ALERT_STATUS_LABELS = {
  open: 'New',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  false_positive: 'False positive',
} as const;
export type AlertStatus = keyof typeof ALERT_STATUS_LABELS;
