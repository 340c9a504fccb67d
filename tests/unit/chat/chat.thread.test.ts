import { describe, expect, it } from 'vitest';

import {
  type ChatEntry,
  dropFailedTurn,
  growReply,
  requestBody,
  toTurns,
} from '../../../src/chat/chat.thread';

const user = (content: string): ChatEntry => ({
  id: content,
  role: 'user',
  content,
  status: 'complete',
});
const reply = (content: string, status: ChatEntry['status'] = 'complete'): ChatEntry => ({
  id: `r-${content}`,
  role: 'assistant',
  content,
  status,
});

describe('chat thread', () => {
  it('sends every message with text, never the reply being awaited', () => {
    expect(
      toTurns([
        user('Hi'),
        reply('Hello'),
        reply('', 'stopped'),
        user('More'),
        reply('', 'pending'),
      ]),
    ).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'More' },
    ]);
  });

  it('grows only the last reply', () => {
    const grown = growReply([user('Hi'), reply('', 'pending')], 'Hel');
    expect(grown.at(-1)).toMatchObject({ content: 'Hel', status: 'streaming' });
    expect(growReply([user('Hi')], 'x')).toEqual([user('Hi')]);
  });

  it('drops the failed turn: the awaited reply and the user message before it', () => {
    expect(dropFailedTurn([user('A'), reply('B'), user('C'), reply('', 'pending')])).toEqual([
      user('A'),
      reply('B'),
    ]);
  });

  it('leaves a client session id out of the request, and a missing thread', () => {
    const base = { messages: [user('Hi')], threadId: null, dashboardData: {} };
    expect(requestBody({ ...base, sessionId: 'session_1700000000000_abcdefghi' })).toEqual({
      messages: [{ role: 'user', content: 'Hi' }],
      dashboardData: {},
    });
    expect(requestBody({ ...base, sessionId: 's1', threadId: 't1' })).toMatchObject({
      sessionId: 's1',
      threadId: 't1',
    });
  });
});
