/**
 * The sessions bench:history opens: a student's question, then a tutoring reply of about 3,000
 * characters with 6 formulas, and so on. Every reply ends with a line naming it, which tells the
 * page when the last one is on screen; `tag` makes each run's formulas new to any formula cache.
 */
import type { ChatMessage } from '../../src/chat/chat.adapter';
import { tutoringUnit } from '../stream/reply';

const QUESTIONS = [
  'How do I solve a quadratic equation when it does not factor nicely?',
  'Can you show me another example, with the formula this time?',
  'Why do we check the answer by substituting it back?',
  'What does the discriminant tell me about the roots?',
];

/** The closing line of reply `j` in a session tagged `tag`. */
export function replyMarker(tag: string, j: number): string {
  return `End of reply ${j} (${tag}).`;
}

/** `count` messages, alternating question and reply, the last one a reply. */
export function sessionMessages(count: number, tag: string): ChatMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const j = i >> 1;
    const createdAt = new Date(Date.UTC(2025, 2, 14, 9, 0, i)).toISOString();
    if (i % 2 === 0) {
      return { id: `q${i}`, role: 'user', content: QUESTIONS[j % QUESTIONS.length]!, createdAt };
    }
    const content = `${tutoringUnit(j, `${tag}.${j}`)}\n${replyMarker(tag, j)}\n`;
    return { id: `r${i}`, role: 'assistant', content, createdAt };
  });
}
