import { describe, expect, it } from 'vitest';

import { apiError, deferred, fakeAuthAdapter, rejects, user } from '../../../fakes/auth';
import { onboardingLogic } from '../../../src/auth/onboarding/onboarding.machine';
import { AUTH_MESSAGES } from '../../../src/lib/messages';
import { settle, start, toasts } from './support';

function onboarding(adapter = fakeAuthAdapter()) {
  return { ...start(onboardingLogic(adapter)), adapter };
}

describe('onboarding machine', () => {
  it('welcome → subjects → tour, and back', () => {
    const { actor } = onboarding();
    expect(actor.getSnapshot().value).toBe('welcome');
    actor.send({ type: 'onboarding.next' });
    expect(actor.getSnapshot().value).toBe('subjects');
    actor.send({ type: 'onboarding.next' });
    expect(actor.getSnapshot().value).toBe('tour');
    actor.send({ type: 'onboarding.back' });
    expect(actor.getSnapshot().value).toBe('subjects');
    actor.send({ type: 'onboarding.back' });
    expect(actor.getSnapshot().value).toBe('welcome');
  });

  it('toggles subjects, kept in the order of the subject list', () => {
    const { actor } = onboarding();
    actor.send({ type: 'onboarding.next' });
    actor.send({ type: 'subject.toggle', subject: 'history' });
    actor.send({ type: 'subject.toggle', subject: 'math' });
    actor.send({ type: 'subject.toggle', subject: 'english' });
    expect(actor.getSnapshot().context.subjects).toEqual(['math', 'history', 'english']);
    actor.send({ type: 'subject.toggle', subject: 'history' });
    expect(actor.getSnapshot().context.subjects).toEqual(['math', 'english']);
  });

  it('completing calls completeOnboarding and ends with the subjects and the fresh user', async () => {
    const complete = deferred<{ user: typeof user }>();
    const { actor, adapter } = onboarding(
      fakeAuthAdapter({ completeOnboarding: () => complete.promise }),
    );
    actor.send({ type: 'onboarding.next' });
    actor.send({ type: 'subject.toggle', subject: 'science' });
    actor.send({ type: 'onboarding.next' });
    actor.send({ type: 'onboarding.complete' });
    expect(actor.getSnapshot().value).toBe('completing');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(adapter.calls.map((call) => call.method)).toEqual(['completeOnboarding']);

    const fresh = { ...user, onboarding_completed: true };
    complete.resolve({ user: fresh });
    await settle(actor, 'done');
    expect(actor.getSnapshot().output).toEqual({ subjects: ['science'], result: { user: fresh } });
  });

  it('a failure returns to the last step with a toast', async () => {
    const { actor, notices } = onboarding(
      fakeAuthAdapter({ completeOnboarding: rejects(apiError(500)) }),
    );
    actor.send({ type: 'onboarding.next' });
    actor.send({ type: 'onboarding.next' });
    actor.send({ type: 'onboarding.complete' });
    await settle(actor, 'tour');
    expect(toasts(notices)).toEqual([`error: ${AUTH_MESSAGES.onboardingFailed}`]);
  });

  it('completes only from the last step', () => {
    const { actor } = onboarding();
    expect(actor.getSnapshot().can({ type: 'onboarding.complete' })).toBe(false);
  });
});
