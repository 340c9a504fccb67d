import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  canSend,
  CLIENT_SESSION_PREFIX,
  DEFAULT_SESSION_TITLE,
  exceedsMessageLimit,
  isClientSessionId,
  messageError,
  newClientSessionId,
  prepareMessage,
  sessionTitle,
} from '../../../src/lib/chat';

const TOO_LONG = 'Message can be up to 4000 characters only.';
const EMPTY = 'Message cannot be empty';

describe('messages', () => {
  it('trims before sending', () => {
    expect(prepareMessage('  hello\n\t')).toBe('hello');
  });

  it('accepts 4000 characters and refuses 4001', () => {
    expect(messageError('a'.repeat(4000))).toBeNull();
    expect(messageError('a'.repeat(4001))).toBe(TOO_LONG);
    expect(exceedsMessageLimit('a'.repeat(4000))).toBe(false);
    expect(exceedsMessageLimit('a'.repeat(4001))).toBe(true);
  });

  it('counts UTF-16 units, like a textarea maxLength: an astral emoji is two', () => {
    expect('😀'.length).toBe(2);
    expect(messageError('😀'.repeat(2000))).toBeNull();
    expect(messageError(`${'😀'.repeat(2000)}a`)).toBe(TOO_LONG);
  });

  it('measures the raw text, spaces included', () => {
    expect(messageError(`${'a'.repeat(3999)}  `)).toBe(TOO_LONG);
  });

  it.each(['', ' ', '\n\n', '\t \r\n'])('refuses a blank message (%j)', (text) => {
    expect(messageError(text)).toBe(EMPTY);
  });

  it('sends only when not waiting, not blank and not too long', () => {
    expect(canSend({ text: 'hi', waiting: false })).toBe(true);
    expect(canSend({ text: 'hi', waiting: true })).toBe(false);
    expect(canSend({ text: '   ', waiting: false })).toBe(false);
    expect(canSend({ text: 'a'.repeat(4001), waiting: false })).toBe(false);
  });
});

describe('client session ids', () => {
  it('is the prefix, the time and 9 base-36 characters', () => {
    const id = newClientSessionId(1732234567890, () => 0.5);
    expect(id).toBe('session_1732234567890_iiiiiiiii');
    expect(id.startsWith(CLIENT_SESSION_PREFIX)).toBe(true);
  });

  it('covers the whole alphabet, even with a random() of exactly 1', () => {
    expect(newClientSessionId(1, () => 0)).toBe('session_1_000000000');
    expect(newClientSessionId(1, () => 0.9999999)).toBe('session_1_zzzzzzzzz');
    expect(newClientSessionId(1, () => 1)).toBe('session_1_zzzzzzzzz');
  });

  it('uses the clock and Math.random by default', () => {
    const before = Date.now();
    const id = newClientSessionId();
    const time = Number(id.split('_')[1]);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(isClientSessionId(id)).toBe(true);
  });

  it('always matches its own shape', () => {
    fc.assert(
      fc.property(fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }), (now, r) => {
        expect(isClientSessionId(newClientSessionId(now, () => r))).toBe(true);
      }),
    );
  });

  it('tells server ids apart', () => {
    expect(isClientSessionId('65f1c0ffee0123456789abcd')).toBe(false);
    expect(isClientSessionId('session_12_abc')).toBe(false);
  });
});

describe('sessionTitle', () => {
  it('keeps a message of up to 60 characters whole, whitespace collapsed', () => {
    expect(sessionTitle('  What is\nphotosynthesis? ')).toBe('What is photosynthesis?');
    const sixty = 'x'.repeat(60);
    expect(sessionTitle(sixty)).toBe(sixty);
  });

  it('cuts a longer message at a word boundary with an ellipsis, 60 characters at most', () => {
    const message =
      'Can you help me understand how to solve quadratic equations by completing the square?';
    const title = sessionTitle(message);
    expect(title).toBe('Can you help me understand how to solve quadratic equations…');
    expect(title.length).toBeLessThanOrEqual(60);
  });

  it('keeps a word that ends exactly at the cut', () => {
    const message = `${'a'.repeat(54)} bcdefghij`;
    expect(sessionTitle(message)).toBe(`${'a'.repeat(54)}…`);
    const exact = `${'a'.repeat(50)} ${'b'.repeat(8)} more words`;
    expect(sessionTitle(exact)).toBe(`${'a'.repeat(50)} ${'b'.repeat(8)}…`);
  });

  it('cuts mid-word when the only boundary is too early', () => {
    expect(sessionTitle(`Hi ${'x'.repeat(80)}`)).toBe(`Hi ${'x'.repeat(56)}…`);
    expect(sessionTitle('y'.repeat(61))).toBe(`${'y'.repeat(59)}…`);
  });

  it('drops punctuation left dangling before the ellipsis', () => {
    const message = `${'word '.repeat(10)}maths: fractions and more`;
    expect(sessionTitle(message)).toBe(`${'word '.repeat(10)}maths…`);
    expect(sessionTitle(`${'a'.repeat(40)}, ${'b'.repeat(30)}`)).toBe(`${'a'.repeat(40)}…`);
  });

  it('never splits an emoji', () => {
    const title = sessionTitle(`${'a'.repeat(58)}😀${'b'.repeat(10)}`);
    expect(title).toBe(`${'a'.repeat(58)}…`);
  });

  it('falls back to a default title', () => {
    expect(sessionTitle('   ')).toBe(DEFAULT_SESSION_TITLE);
  });

  it('is at most 60 characters and ends with … only when cut, for any message', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 120 }), (message) => {
        const collapsed = message.replace(/\s+/g, ' ').trim();
        const title = sessionTitle(message);
        expect(title.length).toBeLessThanOrEqual(60);
        if (collapsed.length <= 60) expect(title).toBe(collapsed || DEFAULT_SESSION_TITLE);
        else {
          expect(title.endsWith('…')).toBe(true);
          expect(collapsed.startsWith(title.slice(0, -1))).toBe(true);
        }
      }),
    );
  });
});
