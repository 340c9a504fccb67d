/** The wire shapes of `/api/v1/chat` (zod, OpenAPI generated from them). */
import { z } from '@hono/zod-openapi';
import { CHAT, VALIDATION_MESSAGES } from 'ayah-coach/rules';

import { jsonDepthCheck } from '../http/json-depth';
import { pageOf, pageQuery } from '../http/paging';
import { hasNoNul, NUL_MESSAGE } from '../http/text';

const MAX_DASHBOARD_CHARS = 8000;

const Turn = z.strictObject({
  role: z.enum(['user', 'assistant']),
  content: z.string().max(32_000).refine(hasNoNul, NUL_MESSAGE),
});

export const SendBody = z
  .strictObject({
    messages: z.array(Turn).min(1).max(500),
    sessionId: z.string().max(200).nullable().optional(),
    threadId: z.string().max(200).nullable().optional(),
    dashboardData: z
      .record(z.string(), z.unknown())
      .refine(...jsonDepthCheck)
      .refine((d) => JSON.stringify(d).length <= MAX_DASHBOARD_CHARS, {
        message: `dashboardData must be at most ${MAX_DASHBOARD_CHARS} characters as JSON`,
      })
      .optional(),
  })
  .superRefine((value, ctx) => {
    const index = value.messages.length - 1;
    const last = value.messages[index];
    if (!last) return;
    if (last.role !== 'user') {
      ctx.addIssue({
        code: 'custom',
        path: ['messages', index, 'role'],
        message: "The last message must be the user's",
      });
    }
    const text = last.content.trim();
    if (text.length === 0 || text.length > CHAT.maxMessageLength) {
      ctx.addIssue({
        code: 'custom',
        path: ['messages', index, 'content'],
        message:
          text.length === 0 ? VALIDATION_MESSAGES.messageEmpty : VALIDATION_MESSAGES.messageTooLong,
      });
    }
  })
  .openapi('ChatSendRequest');

export const SendResponse = z
  .object({ response: z.string(), sessionId: z.string(), threadId: z.string() })
  .openapi('ChatSendResponse');

export const Session = z
  .object({
    id: z.string(),
    title: z.string(),
    createdAt: z.string(),
    lastMessageAt: z.string(),
    messageCount: z.number().int(),
  })
  .openapi('ChatSession');

export const SessionDetail = Session.extend({
  messages: z.array(
    z.object({
      id: z.string(),
      role: z.enum(['user', 'assistant']),
      content: z.string(),
      createdAt: z.string(),
    }),
  ),
}).openapi('ChatSessionDetail');

export const SessionPage = pageOf('ChatSessionPage', 'sessions', Session);
const SearchHit = Session.extend({
  archived: z.boolean().openapi({ description: 'In the archive: Unarchive brings it back' }),
}).openapi('ChatSearchHit');
export const SearchPage = pageOf('ChatSearchPage', 'sessions', SearchHit);
export const Message = z.object({ message: z.string() }).openapi('ChatMessageResponse');
export const SessionIdParams = z.object({ id: z.string() });

export const RenameBody = z
  .strictObject({
    title: z.string().trim().min(1).max(CHAT.renameMaxLength).refine(hasNoNul, NUL_MESSAGE),
  })
  .openapi('RenameSessionRequest');

export const SearchQuery = pageQuery(CHAT.searchLimit).extend({
  search: z.string().max(200).refine(hasNoNul, NUL_MESSAGE),
});
