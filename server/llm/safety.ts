/**
 * Safety for minors. Every student message (and every reply) passes
 * - a local check that always runs: first-person self-harm phrases, and personal data a child should
 *   not post (phone numbers, email and street addresses, ID and card numbers, passwords), and
 * - the provider's moderation endpoint (OpenAI's `/moderations` shape) when AYAH_MODERATION_URL is set.
 * A flagged message gets a kind, fixed answer (below) instead of the model's, and is recorded.
 */
import type { LlmSettings } from '../config';
import type { Logger } from '../http/errors';

export type SafetyCategory = 'self_harm' | 'personal_data' | 'unsafe';

export interface SafetyVerdict {
  flagged: boolean;
  source: 'local' | 'moderation';
  /** Our categories, and the provider's own names after them. */
  categories: string[];
  kind: SafetyCategory | null;
}

const SELF_HARM: RegExp[] = [
  /\b(kill|hurt|harm|cut|starve)(ing)?\s+(my\s*self|me)\b/i,
  /\bsuicid(e|al)\b/i,
  /\b(want|wanna|going|plan(ning)?|trying)\s+(to\s+)?(die|end\s+it(\s+all)?)\b/i,
  /\bend(ing)?\s+my\s+(own\s+)?life\b/i,
  /\bself[\s-]?harm(ing)?\b/i,
  /\bno\s+reason\s+to\s+(live|be\s+alive)\b/i,
  /\bbetter\s+off\s+dead\b/i,
  /\bdon'?t\s+want\s+to\s+(be\s+alive|live|exist|wake\s+up)\b/i,
];

const PERSONAL_DATA: RegExp[] = [
  // Phone numbers written as phone numbers (with separators), so plain arithmetic is not caught.
  /(?:\+\d{1,3}[\s.-]?)?\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b/,
  /\+\d{1,3}[\s.-]?\d{2,4}[\s.-]\d{3,4}[\s.-]?\d{3,4}\b/,
  /\b[\w.%+-]+@[\w-]+(\.[\w-]+)*\.[a-z]{2,}\b/i,
  /\b\d{1,5}\s+(\w+\s+){0,3}(street|st|avenue|ave|road|rd|lane|ln|drive|dr|boulevard|blvd|court|ct|way|place|pl)\b\.?/i,
  /\b(my|our)\s+(home\s+)?address\s+is\b/i,
  /\bi\s+live\s+at\b/i,
  /\b\d{3}-\d{2}-\d{4}\b/,
  /\b(?:\d[ -]?){15,18}\d\b/,
  /\bmy\s+password\s+is\b/i,
];

/** The local check alone (synchronous, no network). */
export function localCheck(
  text: string,
  direction: 'student' | 'reply' = 'student',
): SafetyVerdict {
  const categories: SafetyCategory[] = [];
  if (SELF_HARM.some((re) => re.test(text))) categories.push('self_harm');
  if (direction === 'student' && PERSONAL_DATA.some((re) => re.test(text)))
    categories.push('personal_data');
  return {
    flagged: categories.length > 0,
    source: 'local',
    categories,
    kind: categories[0] ?? null,
  };
}

interface ModerationAnswer {
  results?: { flagged?: boolean; categories?: Record<string, boolean> }[];
}

/** The provider's verdict, or null when none is configured or it could not be reached. */
async function providerCheck(
  text: string,
  settings: LlmSettings,
  logger: Logger,
  signal?: AbortSignal,
): Promise<SafetyVerdict | null> {
  if (!settings.moderationUrl) return null;
  try {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
    const timeout = AbortSignal.timeout(Math.min(settings.timeoutMs, 15_000));
    const response = await fetch(settings.moderationUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        input: text,
        ...(settings.moderationModel ? { model: settings.moderationModel } : {}),
      }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const answer = (await response.json()) as ModerationAnswer;
    const result = answer.results?.[0];
    if (!result) throw new Error('no results in the answer');
    const names = Object.entries(result.categories ?? {})
      .filter(([, on]) => on)
      .map(([name]) => name);
    const flagged = result.flagged === true || names.length > 0;
    const selfHarm = names.some((n) => n.startsWith('self-harm') || n.startsWith('self_harm'));
    const kind: SafetyCategory | null = flagged ? (selfHarm ? 'self_harm' : 'unsafe') : null;
    return { flagged, source: 'moderation', categories: kind ? [kind, ...names] : names, kind };
  } catch (error) {
    if (signal?.aborted) throw error;
    // Fail open to the local check, which has already run: a moderation outage must not stop lessons.
    logger.warn(
      `[safety] moderation endpoint failed (${(error as Error).message}); local check only`,
    );
    return null;
  }
}

/** The local check, then the provider's; the first that flags decides. */
export async function checkSafety(
  text: string,
  direction: 'student' | 'reply',
  settings: LlmSettings,
  logger: Logger,
  signal?: AbortSignal,
): Promise<SafetyVerdict> {
  const local = localCheck(text, direction);
  if (local.flagged) return local;
  return (await providerCheck(text, settings, logger, signal)) ?? local;
}

/** Where a student can find help, in the answers below. */
const HELP = [
  '- If you are in danger right now, call your local emergency number (911 in the US and Canada, 999 in the UK, 112 in Europe).',
  '- In the US you can call or text **988** (Suicide & Crisis Lifeline), any time, free.',
  '- In the UK and Ireland, call Samaritans on **116 123**, or text **SHOUT** to 85258 in the UK.',
  '- Anywhere else, **findahelpline.com** lists free helplines for young people in your country.',
  '- And please tell a trusted adult — a parent, a teacher or your school counselor.',
].join('\n');

export const SAFE_ANSWERS: Record<SafetyCategory, string> = {
  self_harm: [
    "I'm really glad you told me, and I'm sorry you're feeling this way. You matter, and you don't have to handle this alone.",
    "I'm a study helper, so I can't give you the support you deserve right now — but people who care are ready to listen:",
    '',
    HELP,
    '',
    "Whenever you feel ready, I'm here to help with your schoolwork too.",
  ].join('\n'),
  personal_data: [
    "Thanks for trusting me! To keep you safe, please don't share personal information here — like your phone number, email, home address, passwords or ID numbers. I don't need any of it to help you learn.",
    '',
    'What would you like to work on? We could practise math, science, history or English together.',
  ].join('\n'),
  unsafe: [
    "That's something I can't help with. I'm here to help you learn — math, science, history, English and more.",
    '',
    'If something is worrying or upsetting you, please talk to a trusted adult such as a parent, a teacher or your school counselor. If you ever feel unsafe:',
    '',
    HELP,
  ].join('\n'),
};
