import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';

import { taglineMachine, typedText } from '../../../src/auth/tagline/tagline.machine';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const typed = (actor: ReturnType<typeof createActor<typeof taglineMachine>>) =>
  typedText(actor.getSnapshot().context);

describe('tagline machine', () => {
  it('types one character every 80 ms, then is done', () => {
    const actor = createActor(taglineMachine, { input: { text: 'Hi AI' } }).start();
    expect(actor.getSnapshot().value).toBe('typing');
    expect(typed(actor)).toBe('');
    vi.advanceTimersByTime(79);
    expect(typed(actor)).toBe('');
    vi.advanceTimersByTime(1);
    expect(typed(actor)).toBe('H');
    vi.advanceTimersByTime(80 * 3);
    expect(typed(actor)).toBe('Hi A');
    expect(actor.getSnapshot().value).toBe('typing');
    vi.advanceTimersByTime(80);
    expect(typed(actor)).toBe('Hi AI');
    expect(actor.getSnapshot().value).toBe('done');
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('shows the whole line at once for reduced motion', () => {
    const actor = createActor(taglineMachine, {
      input: { text: 'an AI learning coach', reducedMotion: true },
    }).start();
    expect(actor.getSnapshot().value).toBe('done');
    expect(typed(actor)).toBe('an AI learning coach');
  });

  it('never splits a character made of two code units', () => {
    const actor = createActor(taglineMachine, { input: { text: '🎓ok' } }).start();
    vi.advanceTimersByTime(80);
    expect(typed(actor)).toBe('🎓');
  });

  it('an empty line is done at once', () => {
    expect(
      createActor(taglineMachine, { input: { text: '' } })
        .start()
        .getSnapshot().value,
    ).toBe('done');
  });
});
