/** The class dashboard as CSV (issue 24): one line per student, no chat text. Server and client share it. */

/** What a CSV line reads of a student's row. */
export type CsvStudent = {
  name: string;
  goals: { subject: string; goal_type: string; progress: number }[];
  streak: number;
  completed_this_week: number;
  questions_this_week: number;
  last_active: string | null;
};

export const CLASS_CSV_HEADER = [
  'Student',
  'Goals this week',
  'Streak (days)',
  'Completed this week',
  'Tutor questions this week',
  'Last active',
];

const cell = (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  // A leading =, +, -, @ would be a formula in a spreadsheet: neutralised.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export function classCsv(students: CsvStudent[]): string {
  const lines = students.map((s) =>
    [
      s.name,
      s.goals.map((g) => `${g.subject} ${g.goal_type} ${Math.round(g.progress)}%`).join('; '),
      s.streak,
      s.completed_this_week,
      s.questions_this_week,
      s.last_active,
    ]
      .map(cell)
      .join(','),
  );
  return [CLASS_CSV_HEADER.join(','), ...lines].join('\r\n') + '\r\n';
}
