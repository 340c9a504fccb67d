/**
 * One turn of the tutor: store the question, check it, then answer with the model, the offline coach
 * or — for a flagged message — the fixed safe answer, all as the same stream of text pieces, so the
 * streaming and the plain route share one path.
 *
 * What the model sees of the conversation is the session's STORED turns: the client's `messages` give
 * only the question, except in a new session, whose earlier turns (a widget's greeting, a guest's
 * chat) are taken from the client limited and safety-checked. A client cannot put words in Ayah's
 * mouth in a conversation the server holds.
 */
import { CHAT, TRUSTED_ADULT_NOTICE } from 'ayah-coach/rules';

import type { AnyColumn, ColumnOf, ColumnValues } from '../db/compiled';
import type { User } from '../db/schema';
import type { Deps } from '../deps';
import { markSend, traceReply } from '../http/send-trace';
import type { GiveWay } from '../llm/completions';
import { runMaths } from '../llm/maths-pool';
import type { LlmClient, ReplyPiece, Turn } from '../llm/model';
import type { GoalSummary, MemorySummary, StudentContext } from '../llm/prompt';
import { pieces, systemPrompt } from '../llm/prompt';
import type { SafetyCategory } from '../llm/safety';
import { checkSafety, localCheck, SAFE_ANSWERS } from '../llm/safety';
import type { SafetyEvent, TurnInput, Tutor, TutorTurn } from '../ports';

/** The offline coach answers within this long once the maths engines are loaded. */
const COACH_TIMEOUT_MS = 2000;
/** Its answer when the maths would take longer (the engines are stopped, not waited for). */
export const COACH_TOO_HARD =
  'That one is too big for me to work through here. Could you split it into smaller steps, or try a simpler version first? Your teacher can help with the whole problem too.';

/** The model sees at most this many earlier turns of the conversation. */
const HISTORY_TURNS = 20;

/**
 * The narrow ports the tutor asks for (server/app.ts hands it the chat, goals and memory services):
 * the stored conversation and its writes, the student's current goals, their learning memory.
 */
export interface TutorChat {
  /**
   * Stores the question; answers with the session's last `historyTurns` stored turns before it,
   * oldest first (none in a session it created), and what `columns` read in the same statement.
   */
  begin<const C extends readonly AnyColumn[]>(
    userId: string,
    sessionId: string | null | undefined,
    text: string,
    historyTurns: number,
    columns: C,
  ): Promise<{
    session: { id: string; threadId: string };
    created: boolean;
    history: Turn[];
    read: ColumnValues<C>;
  }>;
  finish(userId: string, sessionId: string, reply: string): Promise<void>;
  recordSafety(userId: string, sessionId: string, event: SafetyEvent): Promise<void>;
}

/**
 * The tutor's reads before the model travel as columns of the question's statement (`Column`,
 * db/compiled.ts; issue 26: one statement and one round trip before the model, where there were
 * three on three connections).
 */
export interface GoalsReader {
  /** The week's goals in the student's time zone. */
  currentColumn(userId: string, tz?: string): ColumnOf<GoalSummary[]>;
}

export interface TutorMemory {
  /** What the student studied that the message recalls; null when it needs the model first. */
  recallColumn(userId: string, message: string): ColumnOf<MemorySummary[]> | null;
  recall(userId: string, message: string): Promise<MemorySummary[]>;
  /** Stores what a reply covered; when the student's memory is full, in place of the oldest such. */
  remember(userId: string, text: string, metadata: Record<string, unknown>): Promise<unknown>;
}

/**
 * The port the root hands the tutor (issue 24): tells the trusted adults of a student's classes about
 * a flagged message. Null when the student is in no class (a standalone student: no alert).
 */
export interface SafetyAlerts {
  raise(input: {
    studentId: string;
    sessionId: string | null;
    category: SafetyCategory;
    categories: string[];
    message: string;
    answer: string;
  }): Promise<{ alertIds: string[] } | null>;
}

async function* fromText(text: string): AsyncGenerator<ReplyPiece, void, undefined> {
  for (const piece of pieces(text)) yield piece;
}

export function createTutor(
  deps: Deps,
  services: {
    chat: TutorChat;
    goals: GoalsReader;
    memory: TutorMemory;
    llm: LlmClient;
    alerts: SafetyAlerts;
  },
): Tutor {
  const { config, logger, now } = deps;
  const { chat, goals, memory, llm, alerts } = services;
  /** Follow-ups still running: `stop` waits for them, and none starts once it has. */
  const following = new Set<Promise<void>>();
  let stopped = false;

  /**
   * The student's goals and what they studied, for the prompt: `read` by the question's statement
   * (`TutorChat.begin`), except that with an embedding model the recall calls the endpoint first, so
   * then it is asked once the send is taken. A recall that fails then leaves the prompt without
   * memories; one in the question's statement fails with it, as the question does.
   */
  async function context(
    user: User,
    question: string,
    input: TurnInput,
    [current, recalled]: readonly [GoalSummary[], MemorySummary[]?],
  ): Promise<StudentContext> {
    const memories =
      recalled ??
      (await memory.recall(user.id, question).catch((error: unknown) => {
        logger.warn(`[chat] learning memory unavailable: ${(error as Error).message}`);
        return [];
      }));
    return {
      name: user.displayName,
      goals: current,
      interests: user.interests ?? [],
      dashboardData: input.dashboardData ?? {},
      memories: memories.map((m) => ({ text: m.text, createdAt: m.createdAt })),
      now: now(),
      ...(input.timeZone ? { timeZone: input.timeZone } : {}),
    };
  }

  /** The offline coach's answer, worked out in the maths thread (never blocking other requests). */
  async function coach(student: StudentContext, question: string, history: Turn[]) {
    const answer = await runMaths(
      { name: 'coach', input: { student, question, history } },
      COACH_TIMEOUT_MS,
      { afterLoad: true },
    );
    return typeof answer.text === 'string' ? answer.text : COACH_TOO_HARD;
  }

  /**
   * A new session's earlier turns, as the client sent them: the last HISTORY_TURNS, each cut to the
   * length of a message, a turn the local check flags left out, and all of them left out when the
   * moderation endpoint flags them together (one call, not one a turn).
   */
  async function clientTurns(input: TurnInput, signal: AbortSignal): Promise<Turn[]> {
    const turns = input.messages
      .slice(0, -1)
      .map((m) => ({ role: m.role, content: m.content.trim().slice(0, CHAT.maxMessageLength) }))
      .filter((m) => m.content !== '')
      .slice(-HISTORY_TURNS)
      .filter((m) => !localCheck(m.content, m.role === 'user' ? 'student' : 'reply').flagged);
    if (turns.length === 0) return turns;
    const joined = turns.map((m) => m.content).join('\n\n');
    const verdict = await checkSafety(joined, 'student', config.llm, logger, signal);
    return verdict.flagged ? [] : turns;
  }

  return {
    async begin(
      user: User,
      input: TurnInput,
      signal: AbortSignal,
      giveWay?: GiveWay,
    ): Promise<TutorTurn> {
      const question = input.messages.at(-1)!.content.trim();
      const current = goals.currentColumn(user.id, input.timeZone);
      const recall = memory.recallColumn(user.id, question);
      const taken = chat.begin(
        user.id,
        input.sessionId,
        question,
        HISTORY_TURNS,
        recall ? [current, recall] : [current],
      );
      const student = taken.then(({ read }) => context(user, question, input, read));
      // AYAH_TRACE_SENDS=1: each phase's end (http/send-trace.ts); nothing otherwise.
      void taken.then(
        () => markSend('begin'),
        () => {},
      );
      void student.then(
        () => markSend('context'),
        () => {},
      );
      const [{ session, created, history: storedTurns }] = await Promise.all([taken, student]);
      const ids = { sessionId: session.id, threadId: session.threadId };

      const verdict = await checkSafety(question, 'student', config.llm, logger, signal);
      markSend('safety');
      if (verdict.flagged && verdict.kind) {
        await chat.recordSafety(user.id, session.id, {
          source: verdict.source,
          direction: 'student',
          categories: verdict.categories,
        });
        // In a class, a trusted adult is told, and so is the student (in danger, not for a phone number).
        const danger = verdict.kind !== 'personal_data';
        const told = `${SAFE_ANSWERS[verdict.kind]}\n\n${TRUSTED_ADULT_NOTICE}`;
        const raised = await alerts
          .raise({
            studentId: user.id,
            sessionId: session.id,
            category: verdict.kind,
            categories: verdict.categories,
            message: question,
            answer: danger ? told : SAFE_ANSWERS[verdict.kind],
          })
          .catch((error: unknown) => {
            // The student still gets the safe answer; the safety event above is stored either way.
            logger.error('[chat] could not raise a safety alert:', error);
            return null;
          });
        const answer = raised && danger ? told : SAFE_ANSWERS[verdict.kind];
        return {
          ...ids,
          reply: fromText(answer),
          complete: async () => {
            await chat.finish(user.id, session.id, answer);
            return answer;
          },
          followUp: async () => {},
        };
      }

      const [studentContext, history] = await Promise.all([
        student,
        created ? clientTurns(input, signal) : storedTurns,
      ]);
      const system = llm.stream ? systemPrompt(studentContext) : '';
      markSend('modelCalled');
      const reply = traceReply(
        llm.stream
          ? llm.stream(
              { system, messages: [...history, { role: 'user', content: question }] },
              signal,
              giveWay,
            )
          : fromText(await coach(studentContext, question, history)),
      );

      let stored = false;
      return {
        ...ids,
        reply,
        complete: async (text) => {
          let kept = text;
          if (llm.stream) {
            const check = await checkSafety(text, 'reply', config.llm, logger, signal);
            if (check.flagged && check.kind) {
              await chat.recordSafety(user.id, session.id, {
                source: check.source,
                direction: 'reply',
                categories: check.categories,
              });
              kept = SAFE_ANSWERS[check.kind];
            }
          }
          await chat.finish(user.id, session.id, kept);
          stored = true;
          return kept;
        },
        // What this conversation covered, for the tutor to recall later: after the student has
        // the reply (issue 26), whose `done` waited for it, and with an embedding model for a call
        // to the endpoint too.
        followUp: () => {
          if (!stored || stopped) return Promise.resolve();
          const remembered = memory
            .remember(user.id, `Asked Ayah: ${question.replace(/\s+/g, ' ').slice(0, 500)}`, {
              sessionId: session.id,
            })
            .then(
              () => {},
              (error: unknown) =>
                logger.warn(`[chat] could not store learning memory: ${(error as Error).message}`),
            )
            .finally(() => following.delete(remembered));
          following.add(remembered);
          return remembered;
        },
      };
    },

    async stop() {
      // A reply cut off while the server closes may still start one while these run.
      while (following.size > 0) await Promise.all(following);
      stopped = true;
    },
  };
}
